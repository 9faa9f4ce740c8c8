"""A function of the tree that only reads what it is handed decides nothing.

A checkpoint is a window for a value only if the code after it may decide
the value's fate. Handing the value (or a part of it) to a function of the
tree whose summary neither releases nor keeps that parameter decides
nothing: a file opened here and never closed on any path leaks whether or
not the task is cancelled. Handing it to a function that keeps it does.
"""

import asyncio
from typing import Any


class RemoteFile:
    def __init__(self, handle: str, chan: Any) -> None:
        self.handle = handle
        self._chan = chan

    async def close(self) -> None:
        await self._chan.close()


class Client:
    def __init__(self) -> None:
        self._open: dict = {}
        self._chan: Any = None

    async def _copy_data(self, src: str, dst: str) -> None:
        await asyncio.sleep(0)
        print(src, dst)

    async def _adopt(self, f: Any) -> None:
        await asyncio.sleep(0)
        self._open[f.handle] = f

    async def open(self, path: str) -> RemoteFile:
        await asyncio.sleep(0)
        return RemoteFile(path, self._chan)

    # Fine: neither file is closed on any path (they live as long as the
    # session); the copy only reads their handles.
    async def remote_copy(self, src_path: str, dst_path: str) -> None:
        src = await self.open(src_path)
        dst = await self.open(dst_path)
        await self._copy_data(src.handle, dst.handle)

    # Buggy: the second open is a window for the first file, and keeping the
    # first one a window for the second: _adopt keeps what it is given.
    async def remote_copy_kept(self, src_path: str, dst_path: str) -> None:
        src = await self.open(src_path)
        dst = await self.open(dst_path)  # expect: CAN102
        await self._adopt(src)  # expect: CAN102
        await self._adopt(dst)
