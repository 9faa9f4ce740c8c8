"""A coroutine the module runs as a task, and also awaits directly.

A handler at the top of a coroutine started as a task is that task's own
shutdown (CAN401 does not report it). When the same module also awaits the
coroutine directly (`await self._close()`), it runs in the caller's task
there, and a cancellation it catches and drops is the caller's.
"""

import asyncio
from typing import Any


class Client:
    def __init__(self) -> None:
        self._reconnect: Any = None

    async def _close(self) -> None:
        try:
            await asyncio.wait_for(self._reconnect, 5)
        except asyncio.CancelledError:  # expect: CAN401
            pass
        await asyncio.sleep(0)

    def close_soon(self) -> None:
        asyncio.create_task(self._close())

    # The caller's cancellation during the wait above is lost.
    async def close(self) -> None:
        await self._close()


class Pinger:
    def __init__(self) -> None:
        self._task: Any = None

    # Fine: only ever the pinger's own task, which stop() cancels.
    async def _loop(self) -> None:
        while True:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                break

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    def stop(self) -> None:
        self._task.cancel()
