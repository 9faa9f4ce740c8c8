"""except* clauses are handlers too: `except* asyncio.CancelledError` also
matches a bare CancelledError (wrapped in a group for the match), so a
clause that drops it swallows the cancellation."""

import asyncio
from typing import Any


class Groups:
    def __init__(self, log: Any) -> None:
        self._log = log

    async def _work(self) -> None:
        await asyncio.sleep(1)

    # Buggy: except* matches a bare CancelledError too, and this clause
    # drops it.
    async def run_quiet(self) -> None:
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._work())
        except* asyncio.CancelledError:  # expect: CAN401
            self._log.info("cancelled")

    # Fine: logged and re-raised.
    async def run_logged(self) -> None:
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._work())
        except* asyncio.CancelledError:
            self._log.info("cancelled")
            raise

    # Fine: an except* Exception clause never sees the cancellation.
    async def run_errors(self) -> None:
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._work())
        except* Exception:
            self._log.info("failed")
