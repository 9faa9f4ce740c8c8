"""A helper whose every return is plain data makes nothing to release.

`async def create_progress(label)` returns `tqdm(desc=label)` or None (a
catalogued plain call: a progress bar writes to a stream and holds nothing
of its own), so `pbar = await self.create_progress(...)` is no resource,
whatever its name says and whatever a later `close_progress(pbar)` does.
An async helper that suspends and returns a literal is plain too. A helper
that returns what `open()` made still hands back a resource.
"""

import asyncio
from typing import Any

from tqdm import tqdm


class Dumper:
    def __init__(self, conn: Any, with_progress: bool) -> None:
        self.conn = conn
        self.with_progress = with_progress

    async def report(self, msg: str) -> None:
        await asyncio.sleep(0)

    async def create_progress(self, label: str, total: Any = None) -> Any:
        if self.with_progress:
            return tqdm(desc=label, total=total)
        await self.report(label)
        return None

    async def close_progress(self, pbar: Any) -> None:
        if pbar is not None:
            pbar.close()

    async def create_log(self, path: str) -> Any:
        await self.report(path)
        return open(path, "w")

    # Fine: the bar is a display, not a resource.
    async def dump_users(self) -> None:
        pbar = await self.create_progress("Dumping users")
        async for user in self.conn.users():
            await self.report(user)
        await self.close_progress(pbar)

    # Buggy twin: the log file is open across the loop's awaits.
    async def dump_groups(self, path: str) -> None:
        log = await self.create_log(path)
        async for group in self.conn.groups():  # expect: CAN102
            await self.report(group)
        log.close()
