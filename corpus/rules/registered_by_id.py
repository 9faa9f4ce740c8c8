"""A record that names a value by its identity (`Info(pid=proc.pid)`,
`Handle(sandbox_id=ref.id)`) refers to that value: storing the record in a
registry registers the value, which the registry's cleanup finds by it.
"""

import asyncio
from dataclasses import dataclass
from typing import Any

_PROCS: dict = {}


@dataclass
class ProcInfo:
    pid: int
    port: int


class Sandboxes:
    def __init__(self, api: Any) -> None:
        self._api = api

    # Fine: the process is in the module registry (by its pid) before the
    # wait; the service's delete kills it by that pid.
    async def start(self, key: str, port: int) -> None:
        proc = await asyncio.create_subprocess_exec("server", str(port))
        _PROCS[key] = ProcInfo(pid=proc.pid, port=port)
        await self._api.wait_ready(port)

    # Buggy twin: the record keeps only the port, so nothing can find the
    # process if the wait is cancelled.
    async def start_unnamed(self, key: str, port: int) -> None:
        proc = await asyncio.create_subprocess_exec("server", str(port))
        _PROCS[key] = ProcInfo(pid=0, port=port)
        await self._api.wait_ready(port)  # expect: CAN102
        _PROCS[key] = ProcInfo(pid=proc.pid, port=port)


class Registration:
    # Fine: the class keeps the new type's id, and finds the type by it next
    # time; a cancel at the schema lookup leaves it registered.
    @classmethod
    async def register(cls, client: Any) -> None:
        block_type = await client.create_block_type(cls.spec())
        cls._block_type_id = block_type.id
        try:
            schema = await client.read_block_schema(cls.checksum())
        except LookupError:
            schema = await client.create_block_schema(cls.schema(block_type.id))
        cls._schema_id = schema.id

    # Buggy: the id is kept only after the lookup.
    @classmethod
    async def register_late(cls, client: Any) -> None:
        block_type = await client.create_block_type(cls.spec())
        try:
            schema = await client.read_block_schema(cls.checksum())  # expect: CAN101
        except LookupError:
            schema = await client.create_block_schema(cls.schema(block_type.id))
        cls._block_type_id = block_type.id
        cls._schema_id = schema.id


class Box:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.container = None
        self.status = None

    async def cleanup(self) -> None:
        if self.container is not None:
            await asyncio.to_thread(self.container.remove, force=True)

    # Fine: the handle the client keeps for the new container's id goes to
    # self before the start; cleanup finds the container through it.
    async def create(self) -> "Box":
        try:
            container = await asyncio.to_thread(self.client.api.create_container, image="sandbox")  # expect: CAN203
            self.container = self.client.containers.get(container["Id"])
            await asyncio.to_thread(self.container.start)
        except Exception:
            await self.cleanup()
            raise
        return self

    # Buggy twin: what goes to self is the container's status, not its
    # identity; nothing can find the new container if the start is cancelled.
    async def create_unkept(self) -> "Box":
        try:
            container = await asyncio.to_thread(self.client.api.create_container, image="sandbox")  # expect: CAN203
            self.status = self.client.describe(container["Status"])
            await asyncio.to_thread(self.client.start, container)  # expect: CAN102
        except Exception:
            await self.cleanup()
            raise
        return self
