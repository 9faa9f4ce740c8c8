"""A health check that bounds each probe by a timeout."""

import asyncio

from .backends import LineAgent, TunnelBackend


async def check(backend: TunnelBackend) -> bool:
    try:
        return await asyncio.wait_for(backend.probe(), 5) == 0
    except asyncio.TimeoutError:
        return False


async def watch_lines(agent: LineAgent) -> None:
    task = asyncio.create_task(agent.serve_lines())
    try:
        await asyncio.sleep(10)
    finally:
        task.cancel()
