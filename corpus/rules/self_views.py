"""A local that only ever looks up an entry self holds.

`ref = self._refs[key]` names an object self keeps: a task stored on it
(`ref.task = create_task(...)`) is stored with self, and a later pause
leaves nothing unowned. The twin binds the name to a fresh object when the
lookup finds none, so the task stored on it is owned only once the new
entry is registered, after the pause.
"""

import asyncio
from typing import Any


class Ref:
    def __init__(self, gate: Any = None) -> None:
        self.gate = gate
        self.task: Any = None
        self.pending: list[str] = []


class Broadcaster:
    def __init__(self, source: Any) -> None:
        self._refs: dict[str, Ref] = {}
        self._source = source

    async def _pump(self, key: str, ref: Ref) -> None:
        await self._source.pump(key, ref)

    # Fine: the task goes onto the entry self keeps; the next key's lock
    # (a gate that may pause) is entered with it there.
    async def start(self, keys: list[str]) -> None:
        for key in keys:
            if key not in self._refs:
                self._refs[key] = Ref()
            ref = self._refs[key]
            async with ref.gate:
                ref.pending.append(key)
                if ref.task is None or ref.task.done():
                    ref.task = asyncio.create_task(self._pump(key, ref))

    # Buggy twin: a fresh Ref when none is kept; it is registered only after
    # the announcement.
    async def start_late(self, key: str) -> None:
        ref = self._refs.get(key)
        if ref is None:
            ref = Ref()
        ref.task = asyncio.create_task(self._pump(key, ref))
        await self._source.announce(key)  # expect: CAN102
        self._refs[key] = ref
