"""A server handed to a task that a local function runs, the task kept on self.

`server = await asyncio.start_unix_server(...)`, then `self.debug_task =
asyncio.create_task(_serve())` where the local `_serve` enters `async with
server:`: the task owns the server, and self owns the task (its stop
cancels it, which closes the server). A local function that only reads the
server (its sockets) owns nothing of it, and the server stays unowned
across the next await.
"""

import asyncio
from typing import Any


class Agent:
    def __init__(self) -> None:
        self.debug_task = None
        self.watch_task = None

    async def handle(self, reader: Any, writer: Any) -> None:
        writer.close()

    # Fine: the task the local function runs closes the server.
    async def start_debug(self, path: str) -> None:
        server = await asyncio.start_unix_server(self.handle, path)

        async def _serve() -> None:
            async with server:
                await server.serve_forever()

        self.debug_task = asyncio.create_task(_serve())
        await asyncio.sleep(0.1)

    # Buggy twin: the local function only reads the server's sockets.
    async def start_watch(self, path: str) -> None:
        server = await asyncio.start_unix_server(self.handle, path)

        async def _watch() -> None:
            while server.sockets:
                await asyncio.sleep(1)

        self.watch_task = asyncio.create_task(_watch())
        await asyncio.sleep(0.1)  # expect: CAN102
        server.close()
