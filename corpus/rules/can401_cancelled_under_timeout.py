"""`t.cancel()` then awaiting t under a timeout scope.

`asyncio.timeout(...)` enters and exits without suspending, so in
`t.cancel(); with suppress(CancelledError): async with asyncio.timeout(5):
await t` the only await is of the task just cancelled: the cancellation
suppressed is that task's end. The twin awaits a task it did not cancel.
"""

import asyncio
from contextlib import suppress
from typing import Optional


class Listener:
    def __init__(self) -> None:
        self._task: Optional[asyncio.Task] = None
        self._stopping = False

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with suppress(asyncio.CancelledError, TimeoutError):
            async with asyncio.timeout(5):
                await self._task
        self._task = None

    # Buggy twin: nothing cancelled the task; the suppress eats the
    # caller's cancellation while it waits.
    async def drain(self) -> None:
        if self._task is None:
            return
        self._stopping = True
        with suppress(asyncio.CancelledError, TimeoutError):  # expect: CAN401
            async with asyncio.timeout(5):
                await self._task
        self._task = None
