"""A wrapper that starts the task a factory makes.

`_start_task(self, factory)` calls what it is handed and starts the
coroutine as a task (`create_task(factory())`); its callers hand it a
method, uncalled: `self._start_task(self._reader)`. A handler at the top of
that method is the task's own end. The same method handed to a wrapper that
runs the factory in place (`await factory()`) runs in the caller's task,
and a swallow there is reported.
"""

import asyncio


class Connection:
    def __init__(self) -> None:
        self._reader_task = None
        self._closing = False

    def _start_task(self, factory):
        if not self._closing:
            return asyncio.create_task(factory())
        return None

    async def _run_now(self, factory):
        return await factory()

    def open(self) -> None:
        self._reader_task = self._start_task(self._reader)

    async def close(self) -> None:
        self._closing = True
        if self._reader_task is not None:
            self._reader_task.cancel()

    # Fine: the outermost frame of the task _start_task makes.
    async def _reader(self) -> None:
        try:
            while True:
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass

    async def flush(self) -> None:
        await self._run_now(self._drain)

    # Buggy: run in place by _run_now, in the caller's task.
    async def _drain(self) -> None:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # expect: CAN401
            pass
