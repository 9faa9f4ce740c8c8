"""Releases run in a worker thread.

`await asyncio.to_thread(os.close, fd)` and `await
loop.run_in_executor(None, f.close)` hand the release to a thread, which
runs it whatever happens to the await: cancelled there, the task stops
waiting, and the descriptor is closed all the same. The twins hand the
thread something else (`os.fsync`), or reach the threaded close only
after another await.
"""

import asyncio
import os


class Device:
    def __init__(self, path: str) -> None:
        self._path = path

    # Fine: the thread closes what the thread opened (the open itself is
    # CAN203's: a cancel there drops the descriptor the thread made).
    async def probe(self) -> None:
        fd = await asyncio.to_thread(os.open, self._path, os.O_RDWR)  # expect: CAN203
        await asyncio.to_thread(os.close, fd)

    # Fine: opened here, closed by the executor.
    async def flush_log(self, data: bytes) -> None:
        log = open(self._path, "ab")
        log.write(data)
        await asyncio.get_running_loop().run_in_executor(None, log.close)

    # Buggy: the thread syncs the descriptor; the close after it is skipped
    # by a cancel at the await.
    async def sync(self) -> None:
        fd = os.open(self._path, os.O_RDWR)
        await asyncio.to_thread(os.fsync, fd)  # expect: CAN102
        os.close(fd)

    # Buggy: the threaded close comes only after a sleep.
    async def settle(self) -> None:
        log = open(self._path, "ab")
        await asyncio.sleep(0.1)  # expect: CAN102
        await asyncio.to_thread(log.close)
