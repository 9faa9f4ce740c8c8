"""Event feeds, as async generators."""

import asyncio
from typing import Any, AsyncIterator


# Fine: only ever driven by the streaming response in routes.py.
async def log_events(source: Any) -> AsyncIterator[str]:
    try:
        while True:
            line = await source.next_line()
            yield f"data: {line}\n\n"
    except asyncio.CancelledError:
        source.detach()


# Buggy twin: also iterated in place below.
async def replay_events(source: Any) -> AsyncIterator[str]:
    try:
        for line in await source.history():
            yield f"data: {line}\n\n"
    except asyncio.CancelledError:  # expect: CAN401
        source.detach()


async def replay_to(source: Any, sink: Any) -> None:
    async for chunk in replay_events(source):
        await sink.write(chunk)
