"""Coroutines this module starts through the package's spawner
(supervisor.py), which lives in another module."""

import asyncio

from .supervisor import run_blocking, supervised_task


class DocCleaner:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.cleaners: dict = {}

    # Fine: the outermost frame of the task supervised_task starts; the
    # cancellation it ends on is the one `forget` sends it.
    async def _clean(self, key: str) -> None:
        try:
            await asyncio.sleep(60)
            self.cleaners.pop(key, None)
        except asyncio.CancelledError:
            print("cleaner cancelled", key)

    def schedule(self, key: str) -> None:
        self.cleaners[key] = supervised_task(self._clean(key), name="clean-" + key)

    def forget(self, key: str) -> None:
        task = self.cleaners.pop(key, None)
        if task is not None:
            task.cancel()

    # Buggy twin: run_blocking waits for the coroutine, and a timeout there
    # cancels it in place of its waiter, which then sees it return quietly.
    async def _flush(self) -> None:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # expect: CAN401
            print("flush cancelled")

    def flush(self) -> None:
        run_blocking(self._flush(), self.loop, 5.0)
