"""The package's own spawner: starts a coroutine as a task and keeps it."""

import asyncio
from typing import Any, Coroutine, Optional

_tasks: set = set()


def supervised_task(coro: Coroutine[Any, Any, Any], *, name: str, registry: Optional[set] = None) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro, name=name)
    (registry if registry is not None else _tasks).add(task)
    task.add_done_callback((registry if registry is not None else _tasks).discard)
    return task


# Not a spawner in that sense: it runs the coroutine in the loop's thread
# and waits for its result, so the coroutine's frames are the waiter's.
def run_blocking(coro: Coroutine[Any, Any, Any], loop: asyncio.AbstractEventLoop, timeout: float) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)


async def cancel_and_wait(task: "asyncio.Task[Any]") -> None:
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
