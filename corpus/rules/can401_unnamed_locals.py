"""A function defined inside another that nothing there names never runs.

`pipe_probe` defines `leftover`, a coroutine whose handler swallows a
cancellation, but the only line that would start it is commented out:
nothing calls it, returns it, registers it with a decorator or hands it
on, so its code never runs and its handler is no finding. In the twin
`pipe_probe_started`, the same coroutine is awaited in place, and the
cancellation it swallows is its caller's.
"""

import asyncio
from typing import Any


# Fine: `leftover` is never named again in pipe_probe.
async def pipe_probe(pipe: Any) -> None:
    async def leftover(p: Any) -> None:
        try:
            await p.read()
        except asyncio.CancelledError:
            pass

    # asyncio.create_task(leftover(pipe))
    await pipe.write(b"probe")


# Buggy twin: the nested coroutine is awaited in place.
async def pipe_probe_started(pipe: Any) -> None:
    async def drain_once(p: Any) -> None:
        try:
            await p.read()
        except asyncio.CancelledError:  # expect: CAN401
            pass

    await pipe.write(b"probe")
    await drain_once(pipe)
