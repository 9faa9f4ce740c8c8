"""CAN301 through a helper: an entry taken out of a registry by a
synchronous helper that returns it (`pruned = self._prune_if_needed()`) is
the caller's take-out, released across its checkpoints like one written in
place.
"""

import asyncio
from typing import Any


class Pool:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._entries: dict[int, Any] = {}

    def _prune_if_needed(self) -> Any:
        if len(self._entries) < 8:
            return None
        oldest = min(self._entries)
        return self._entries.pop(oldest, None)

    async def _stop(self, entry: Any) -> None:
        await entry.proc.wait()

    # Buggy: the pruned entry is out of the registry and stopped across an
    # await; cancelled there, nothing can find it.
    async def add(self, key: int, entry: Any) -> None:
        async with self._lock:
            pruned = self._prune_if_needed()
            self._entries[key] = entry
        if pruned is not None:
            await self._stop(pruned)  # expect: CAN301

    # Fine: the stop is shielded, so the take-out is settled.
    async def add_settled(self, key: int, entry: Any) -> None:
        async with self._lock:
            pruned = self._prune_if_needed()
            self._entries[key] = entry
        if pruned is not None:
            await asyncio.shield(self._stop(pruned))
