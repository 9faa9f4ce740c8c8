"""An attribute set to a parameter or a default of the tree's own class.

`self.log = log or MemoryLog()` makes `self.log` a MemoryLog when the
caller passes none: its methods' summaries apply to `self.log.x()`. Here
`MemoryLog.flush` never suspends, so awaiting it opens no window; the
twin's default, `SocketLog`, does suspend.
"""

import asyncio
from typing import Any


class MemoryLog:
    def __init__(self) -> None:
        self.lines: list[str] = []

    async def flush(self) -> list[str]:
        out, self.lines = self.lines, []
        return out


class SocketLog:
    def __init__(self, sock: Any = None) -> None:
        self.sock = sock

    async def flush(self) -> list[str]:
        await self.sock.drain()
        return []


class Worker:
    def __init__(self, log: Any = None) -> None:
        self.log = log or MemoryLog()

    # Fine: the flush of the default log returns at once.
    async def run(self, job: Any) -> None:
        task = asyncio.create_task(job())
        await self.log.flush()
        await task


class RemoteWorker:
    def __init__(self, log: Any = None) -> None:
        self.log = log or SocketLog()

    # Buggy twin: the default log's flush suspends.
    async def run(self, job: Any) -> None:
        task = asyncio.create_task(job())
        await self.log.flush()  # expect: CAN102
        await task
