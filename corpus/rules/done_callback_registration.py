"""A task given its done-callback before it is registered.

`task.add_done_callback(self._tasks.discard)` only schedules a callback;
it does not raise, so no handler around it is reached between the task's
start and `self._tasks.add(task)`. The twin calls a hook that may raise in
between, and the handler goes round the loop again, whose next await
finds the unregistered task held by nothing: on the next pass the option,
an attribute another task may change, can take the other branch. (A
parameter cannot change between passes: a pass that started a task takes
the same branch again, and that branch has no await before the next
start.)
"""

import asyncio
from typing import Any, Callable


class Repeater:
    def __init__(self, job: Callable[[], Any], hook: Callable[[Any], None]) -> None:
        self._job = job
        self._hook = hook
        self._tasks: set = set()
        self.overlap = False

    # Fine: nothing between the start and the registration raises.
    async def run(self, overlap: bool) -> None:
        while True:
            try:
                if not overlap:
                    await self._job()
                else:
                    task = asyncio.create_task(self._job())
                    task.add_done_callback(self._tasks.discard)
                    self._tasks.add(task)
            except OSError:
                self.failed = True
            else:
                await asyncio.sleep(5)

    # Buggy twin: the hook may raise OSError after the start; the handler
    # sleeps with the task held by nothing.
    async def run_hooked(self) -> None:
        while True:
            try:
                if not self.overlap:
                    await self._job()  # expect: CAN102
                else:
                    task = asyncio.create_task(self._job())
                    self._hook(task)
                    self._tasks.add(task)
            except OSError:
                self.failed = True
            else:
                await asyncio.sleep(5)
