"""A client entered into an exit stack self holds.

`client = httpx.AsyncClient(...)` then `await
self._stack.enter_async_context(client)`: the enter of a context manager
the catalog says never suspends (nonsuspending-enter) takes no
cancellation, and once entered, the stack self holds closes the client
with itself, as a store into self hands it over. A client made and left
across another await before it is entered is unowned there.
"""

import asyncio
import contextlib
from typing import Any

import httpx


class Server:
    def __init__(self, url: str) -> None:
        self.url = url
        self._stack = contextlib.AsyncExitStack()

    async def open_streams(self, client: Any) -> Any:
        return client

    async def handshake(self) -> None:
        # (waits for the peer: entering a bare exit stack would not suspend)
        await asyncio.sleep(0.05)

    # Fine: entered at once into the stack self holds.
    async def __aenter__(self) -> "Server":
        client = httpx.AsyncClient(timeout=30)
        await self._stack.enter_async_context(client)
        self.streams = await self._stack.enter_async_context(self.open_streams(client))
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._stack.aclose()

    # Buggy twin: the client waits across the handshake before the stack
    # takes it.
    async def connect_late(self) -> None:
        client = httpx.AsyncClient(timeout=30)
        await self.handshake()  # expect: CAN102
        await self._stack.enter_async_context(client)
