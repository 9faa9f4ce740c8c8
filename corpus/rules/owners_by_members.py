"""A class of the tree owns a resource when what it releases is one: a
stream whose close only closes an in-memory channel of the tree (which owns
nothing) owns nothing either, while one that closes a socket it opened, or
a member made by code outside the tree, does.
"""

import asyncio
from collections import deque
from typing import Any

from .wire import open_wire


class Channel:
    def __init__(self) -> None:
        self._items: deque = deque()
        self._closed = False

    def send(self, item: Any) -> None:
        self._items.append(item)

    def close(self) -> None:
        self._closed = True


class TokenStream:
    def __init__(self) -> None:
        self._ch = Channel()

    def push(self, text: str) -> None:
        self._ch.send(text)

    async def aclose(self) -> None:
        self._ch.close()


class WireStream:
    def __init__(self, url: str) -> None:
        self._wire = open_wire(url)

    def push(self, text: str) -> None:
        self._wire.write(text)

    async def aclose(self) -> None:
        self._wire.close()


class Synth:
    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._streams: list = []

    # Fine: the token stream holds only a channel of the tree.
    async def run(self, text: str) -> None:
        tokens = TokenStream()
        async with self._pool.connection() as conn:
            try:
                tokens.push(text)
                await conn.send(text)
            finally:
                await tokens.aclose()

    # Buggy twin: the wire stream holds a wire made outside the tree.
    async def run_wired(self, url: str, text: str) -> None:
        wire = WireStream(url)
        async with self._pool.connection() as conn:  # expect: CAN102
            try:
                wire.push(text)
                await conn.send(text)
            finally:
                await wire.aclose()
