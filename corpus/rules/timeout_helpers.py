"""aiohttp's `ceil_timeout` is an asyncio timeout scope: its exit does
not suspend, so a connection made inside it and returned right after is
never unowned across a checkpoint. The twin's scope is a context manager
nothing is known of, whose exit may suspend."""

import asyncio
from typing import Any

from aiohttp.helpers import ceil_timeout


class UnixConnector:
    def __init__(self, factory: Any, gate: Any) -> None:
        self._factory = factory
        self._gate = gate

    # Fine: the exit of ceil_timeout returns at once.
    async def connect(self, path: str, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        async with ceil_timeout(timeout):
            _, proto = await loop.create_unix_connection(self._factory, path)
        return proto

    # Buggy twin: the gate's exit may suspend with the protocol unowned.
    async def connect_gated(self, path: str) -> Any:
        loop = asyncio.get_running_loop()
        async with self._gate.slot():  # expect: CAN102
            _, proto = await loop.create_unix_connection(self._factory, path)
        return proto
