"""Asking a task whether it is done raises nothing.

`if task is not None and not task.done(): await task` inside a try: the
only exception out of that body comes from the await, which raises once
the task has finished, so a handler after it sees the task done. Were the
question able to raise, the task could reach the handler still running.
"""

import asyncio
from typing import Any, Optional


async def work() -> None:
    await asyncio.sleep(1)


# Fine: the task is awaited to its end before the shutdown wait (and then
# handed back, finished).
async def run_then_shutdown(scope: Any, log: Any) -> Any:
    task: Optional["asyncio.Task[None]"] = None
    try:
        task = asyncio.create_task(work())
        await scope.ready()
    finally:
        try:
            if task is not None and not task.done():
                await task
        except Exception:
            log.warning("worker failed")
        finally:
            await scope.finalize()
    return task


# Buggy: a question that may raise (a method of another object) leaves the task
# running into the handler and the shutdown wait.
async def run_then_shutdown_checked(scope: Any, log: Any) -> Any:
    task: Optional["asyncio.Task[None]"] = None
    try:
        task = asyncio.create_task(work())
        await scope.ready()
    finally:
        try:
            if task is not None and not scope.closing():
                await task
        except Exception:
            log.warning("worker failed")
        finally:
            await scope.finalize()  # expect: CAN102
    return task
