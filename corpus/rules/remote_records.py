"""Requests named like makers that answer with a record.

`create_*`, `launch_*` and `provision_*` name requests that make something on a
server: a sandbox whose handle must be deleted, but just as often a room, a
run or the results of created items that the server keeps and nobody here
should release. What the function does with the value tells which: a value
it only hands back to its caller, alone or in a list, is a record, and so is
one it works through and hands back (`await group.edit(topic=...)`, as a
caller edits a group the server keeps). A value the function releases on
some path (`await sandbox.delete()` when the readiness wait fails) is a
live handle, and so is one it stores with an owner. An owner given only
the value's identity (`repo.current_version_id = version.id`) is what a
row gets too: that says nothing of a handle.
"""

from dataclasses import dataclass
from typing import Any


@dataclass
class RepoRow:
    name: str
    current_version_id: Any = None


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

    # Fine: the group is the server's, kept there for its members; editing
    # it before handing it back makes it no handle of this function's.
    async def create_group(self, name: str, topic: str) -> Any:
        group = await self.api.create_group(name=name)
        await group.edit(topic=topic)
        return group

    # Buggy: the sandbox is deleted when the readiness wait fails, but only
    # for an Exception; a cancel there leaves it running with nobody holding
    # its id.
    async def create_sandbox(self, spec: Any) -> Any:
        sandbox = await self.api.create_sandbox(spec)
        try:
            await sandbox.wait_ready()  # expect: CAN101
        except Exception:
            await sandbox.delete()
            raise
        return sandbox

    # Buggy: the same sandbox with no cleanup at all, kept by the client
    # only after the wait.
    async def create_tracked_sandbox(self, spec: Any) -> Any:
        sandbox = await self.api.create_sandbox(spec)
        await sandbox.wait_ready()  # expect: CAN102
        self.sandboxes[spec] = sandbox
        return sandbox

    # Fine: the version row is referenced by its id from the repository
    # row, as rows are; nothing here must delete it.
    async def create_version(self, repo: "RepoRow", manifest: Any, promote: bool) -> Any:
        version = await self.api.create_version(manifest)
        if promote:
            repo.current_version_id = version.id
        await self.cache.note(manifest)
        return version

    # Buggy: the worker itself is kept by the client, on one path, and
    # only after an await.
    async def launch_tracked(self, spec: Any, track: bool) -> Any:
        worker = await self.api.launch_worker(spec)
        await self.cache.note(spec)  # expect: CAN102
        if track:
            self.sandboxes[spec] = worker
        return worker

    # Buggy: stored with its owner only after an await.
    async def launch_worker(self, spec: Any) -> Any:
        worker = await self.api.launch_worker(spec)
        await self.cache.note(spec)  # expect: CAN102
        self.sandboxes[spec] = worker
        return worker


class PortLink:
    def __init__(self, serial: Any) -> None:
        self.serial = serial

    # Buggy: a `create_*connection` makes a connection this process holds,
    # handed back or not; a cancel at the handshake leaves the port open.
    async def open_link(self, url: str) -> Any:
        _, protocol = await self.serial.create_serial_connection(url=url)
        await protocol.handshake()  # expect: CAN102
        return protocol
