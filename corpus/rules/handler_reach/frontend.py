"""A tunnel frontend: one connection handler per accepted socket."""

import asyncio
import functools
from typing import Dict, Optional

from .backends import TunnelBackend


class TunnelFrontend:
    def __init__(self) -> None:
        self.backends: Dict[int, TunnelBackend] = {}
        self.servers: list = []

    async def start(self, port: int) -> None:
        server = await asyncio.start_server(functools.partial(self._pipe, port), port=port)
        self.servers.append(server)
        self.servers.append(await asyncio.start_server(self._echo, port=port + 1))

    async def _pipe(self, key: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        backend: Optional[TunnelBackend] = self.backends.get(key)
        if backend is None:
            writer.close()
            return
        try:
            await backend.bind(reader, writer)
        finally:
            writer.close()

    async def _echo(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        backend = TunnelBackend("cat")
        await backend.echo(reader, writer)
