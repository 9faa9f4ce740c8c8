"""CAN401: the task a method cancels and hands back.

`cancel()` takes the running task off the object, cancels it and returns
it; `cancel_wait()` awaits what it returned under `except CancelledError:
pass`: the `t.cancel(); await t` idiom split across two methods, where the
cancellation caught is the task's own. A method that hands back the running
task without cancelling it leaves the await open to the caller's
cancellation, which the same handler then loses.
"""

import asyncio
from typing import Any, Optional


class Repeater:
    def __init__(self, work: Any) -> None:
        self.work = work
        self.task: Optional["asyncio.Task[Any]"] = None

    def start(self) -> None:
        self.task = asyncio.create_task(self.work())

    def cancel(self) -> Optional["asyncio.Task[Any]"]:
        task = self.task
        if task is None:
            return None
        self.task = None
        task.cancel()
        return task

    def current(self) -> Optional["asyncio.Task[Any]"]:
        task = self.task
        return task

    # Fine: the task awaited is the one cancel() just cancelled.
    async def cancel_wait(self) -> None:
        if task := self.cancel():
            try:
                await task
            except asyncio.CancelledError:
                pass

    # The running task, not cancelled: the caller's cancel is swallowed.
    async def join(self) -> None:
        if task := self.current():
            try:
                await task
            except asyncio.CancelledError:  # expect: CAN401
                pass
