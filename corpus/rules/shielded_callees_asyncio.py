"""anyio's shield in asyncio code does not stop a native cancellation.

`with anyio.CancelScope(shield=True):` shields against anyio's own cancel
scopes; a `task.cancel()` or an `asyncio.timeout` of the asyncio task still
reaches the await inside it. A helper whose awaits are shielded so is still
a point where the caller can be cancelled.
"""

import asyncio
from typing import Any

import anyio


async def drain_waiter(waiter: "asyncio.Future[Any]") -> None:
    waiter.cancel()
    with anyio.CancelScope(shield=True):
        await asyncio.gather(waiter, return_exceptions=True)


# Buggy: the worker task is unowned across the drain, which a native
# cancellation of this task still reaches.
async def stream(model: Any) -> Any:
    worker = asyncio.create_task(model.run())
    waiter = asyncio.get_running_loop().create_future()
    await drain_waiter(waiter)  # expect: CAN102
    try:
        return await model.result()
    finally:
        worker.cancel()
