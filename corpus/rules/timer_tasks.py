"""Tasks that make nothing: a timer, and the caller's own future.

`asyncio.create_task(asyncio.sleep(t))` runs a timer that holds nothing
and ends by itself; `asyncio.ensure_future(fut)` of a parameter annotated
as a future hands back that same future, the caller's. Neither is left
behind by a cancellation. A task over the caller's coroutine, or over a
coroutine of this module, is.
"""

import asyncio
from typing import Any, Awaitable, Coroutine


# Fine: a timer raced against the caller's future, which the caller keeps.
async def wait_without_cancelling(fut: asyncio.Future, timeout: float) -> bool:
    waited = asyncio.ensure_future(fut)
    timer = asyncio.create_task(asyncio.sleep(timeout))
    done, _ = await asyncio.wait({waited, timer}, return_when=asyncio.FIRST_COMPLETED)
    timer.cancel()
    return waited in done


# Buggy twin: the caller's coroutine is made a task here, which a
# cancellation at the wait leaves running.
async def run_with_deadline(coro: Coroutine[Any, Any, Any], timeout: float) -> bool:
    job = asyncio.ensure_future(coro)
    timer = asyncio.create_task(asyncio.sleep(timeout))
    done, _ = await asyncio.wait({job, timer}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    timer.cancel()
    if job not in done:
        job.cancel()
    return job in done


async def _poll(source: Any) -> Any:
    while True:
        item = await source.read()
        if item is not None:
            return item


# Buggy twin: a poller task of this module, which holds the source's reads.
async def poll_with_deadline(source: Any, timeout: float) -> Awaitable[Any]:
    poller = asyncio.create_task(_poll(source))
    timer = asyncio.create_task(asyncio.sleep(timeout))
    done, _ = await asyncio.wait({poller, timer}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    timer.cancel()
    if poller not in done:
        poller.cancel()
    return poller
