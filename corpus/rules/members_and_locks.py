"""Resources made into a local object, and latent lock windows.

`entry.task = asyncio.create_task(...)` makes a task that only the local
`entry` holds: it is live until the entry is handed over (or the task is
cancelled through it). An asyncio lock that no holder keeps across an await
is always free when acquired, so `async with self._lock` does not suspend
today: the window there is latent (reported, and said to be), and opens the
day one holder awaits inside.
"""

import asyncio
from typing import Any


class Entry:
    def __init__(self, proc: Any) -> None:
        self.proc = proc
        self.task: asyncio.Task[None] | None = None


class Registry:
    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn
        self._lock = asyncio.Lock()
        self._busy = asyncio.Lock()
        self._entries: dict[int, Entry] = {}

    async def _pump(self, entry: Entry) -> None:
        await asyncio.sleep(0)

    # Buggy: the task lives only in the entry, which is registered after
    # an await.
    async def start_member(self, key: int) -> None:
        entry = Entry(None)
        entry.task = asyncio.create_task(self._pump(entry))
        await self._spawn()  # expect: CAN102
        self._entries[key] = entry

    # Fine: the member task is cancelled through the entry when the await
    # fails.
    async def start_member_guarded(self, key: int) -> None:
        entry = Entry(None)
        entry.task = asyncio.create_task(self._pump(entry))
        try:
            await self._spawn()
        except BaseException:
            entry.task.cancel()
            raise
        self._entries[key] = entry

    # Buggy, latent: no holder of self._lock awaits while holding it, so the
    # acquire is free today; the message says so.
    async def register(self, key: int) -> None:
        entry = Entry(None)
        entry.task = asyncio.create_task(self._pump(entry))
        async with self._lock:  # expect: CAN102
            self._entries[key] = entry

    def count(self) -> int:
        return len(self._entries)

    async def forget(self, key: int) -> None:
        async with self._lock:
            self._entries.pop(key, None)

    # Buggy: self._busy is held across an await by work(), so acquiring it
    # can suspend, and a cancel there leaks the task.
    async def register_busy(self, key: int) -> None:
        entry = Entry(None)
        entry.task = asyncio.create_task(self._pump(entry))
        async with self._busy:  # expect: CAN102
            self._entries[key] = entry

    async def work(self) -> None:
        async with self._busy:
            await asyncio.sleep(0)
