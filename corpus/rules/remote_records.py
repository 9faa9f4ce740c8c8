"""Requests named like makers that answer with a record.

`create_*`, `launch_*` and `provision_*` name requests that make something on a
server: a sandbox whose handle must be deleted, but just as often a room, a
run or the results of created items that the server keeps and nobody here
should release. What the function does with the value tells which: a value
it only hands back to its caller, alone or in a list, never releasing it,
storing it with an owner or calling a method of it, is a record. A value the
function works through (`await sandbox.wait_ready()`) is a live handle, and
so is one it stores or releases on some path.
"""

from typing import Any


class RoomClient:
    def __init__(self, api: Any, cache: Any) -> None:
        self.api = api
        self.cache = cache
        self.sandboxes: dict = {}

    # Fine: the room id is the server's; the cache update only records it.
    async def create_room(self, name: str, invitees: list) -> Any:
        room_id = await self.api.create_room(name=name)
        for user in invitees:
            await self.cache.set_membership(room_id, user)
        return room_id

    # Fine: a list of result records, each item registered by the server.
    async def create_items(self, requests: list) -> list:
        results = []
        for req in requests:
            result = await self.api.create_item(req)
            await self.cache.note(req)
            results.append(result)
        return results

    # Buggy: the sandbox is driven before it is handed back; a cancel at the
    # readiness wait leaves it running with nobody holding its id.
    async def create_sandbox(self, spec: Any) -> Any:
        sandbox = await self.api.create_sandbox(spec)
        await sandbox.wait_ready()  # expect: CAN102
        return sandbox

    # Buggy: stored with its owner only after an await.
    async def launch_worker(self, spec: Any) -> Any:
        worker = await self.api.launch_worker(spec)
        await self.cache.note(spec)  # expect: CAN102
        self.sandboxes[spec] = worker
        return worker
