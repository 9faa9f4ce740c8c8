"""The exit of `async with self._locks[key]`, a lock out of a
`defaultdict(asyncio.Lock)` the class keeps (one lock per key), releases
the lock and returns: it never suspends, so it is no window for what the
body registered just before it. A lock whose kind the class does not say
(`self._gates[key]` filled from outside) may be anything, and its exit
may suspend.
"""

import asyncio
from collections import defaultdict
from typing import Any, Dict


class RoomDirectory:
    _room_locks: "Dict[str, asyncio.Lock]" = defaultdict(asyncio.Lock)

    def __init__(self, server: Any, gates: Dict[str, Any]) -> None:
        self.server = server
        self._gates = gates

    async def open_room(self, room_id: str) -> Any:
        async with self._room_locks[room_id]:
            room = await self.server.open(room_id)
            self.server.keep(room_id, room)
        return room

    async def open_gated_room(self, room_id: str) -> Any:
        async with self._gates[room_id]:  # expect: CAN102
            room = await self.server.open(room_id)
            self.server.keep(room_id, room)
        return room
