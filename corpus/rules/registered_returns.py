"""A helper that registers what it makes with its own object, through
another method of that object (`self._enter_room(sid, ...)`), and returns
it: the object keeps it, so the caller only borrows it, as when the helper
stores it in place. A helper of the module that builds something new of
the value (`make_core(listener=member)`) keeps nothing of the caller's.
"""

from typing import Any


class MemberRooms:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.rooms: dict = {}

    def _enter_room(self, sid: str, room: str) -> None:
        self.rooms.setdefault(room, {})[sid] = room

    def connect(self, room: str):
        sid = self.server.generate_id()
        self._enter_room(sid, room)
        return sid


class AsyncMemberRooms(MemberRooms):
    async def connect(self, room: str):
        return super().connect(room)


def make_core(listener: Any) -> Any:
    return {"listener": listener}


class RoomServer:
    def __init__(self, server: Any) -> None:
        self.members = AsyncMemberRooms(server)
        self.server = server

    # Fine: the rooms keep the member's session from the moment it exists.
    async def join(self, room: str) -> None:
        sid = await self.members.connect(room)
        await self.server.announce(sid)
        try:
            await self.server.greet(sid)
        except ValueError:
            await self.server.disconnect(sid)

    async def open_member(self, room: str) -> Any:
        member = self.server.generate_id()
        core = make_core(listener=member)
        await self.server.prepare(core)
        return member

    # Buggy twin: open_member hands back a session only a new record names.
    async def join_direct(self, room: str) -> None:
        member = await self.open_member(room)
        await self.server.announce(member)  # expect: CAN102
        try:
            await self.server.greet(member)  # expect: CAN101
        except ValueError:
            member.close()
