"""Coroutines of the module that hand back a catalogued maker's result.

`Dialer.connect()` returns `await asyncio.wait_for(asyncio.open_connection(
...), t)`: what a caller unpacks from it is that maker's pair, element for
element (also where it unpacks the pair first, `reader, writer = await
...` then `return reader, writer`). The writer carries the connection (the catalog's tuple=1) and the
reader is its other end, so closing the writer on every exception releases
both. Closing it only on ordinary exceptions still leaves it open when the
task is cancelled.
"""

import asyncio
from typing import Any


class Dialer:
    def __init__(self, host: str, port: int) -> None:
        self._host = host
        self._port = port

    async def connect(self) -> Any:
        return await asyncio.wait_for(asyncio.open_connection(self._host, self._port), timeout=5)


async def exchange(reader: Any, writer: Any) -> bytes:
    writer.write(b"hello")
    await writer.drain()
    return await reader.readline()


# Fine: every exception, cancellation included, closes the writer.
async def greet(host: str, port: int) -> Any:
    dialer = Dialer(host, port)
    reader, writer = await dialer.connect()
    try:
        reply = await exchange(reader, writer)
    except BaseException:
        reader.feed_eof()
        writer.close()
        raise
    return reply, reader, writer


# Buggy: a cancellation skips the close.
async def greet_leaky(host: str, port: int) -> Any:
    dialer = Dialer(host, port)
    reader, writer = await dialer.connect()
    try:
        reply = await exchange(reader, writer)  # expect: CAN101
    except Exception:
        writer.close()
        raise
    return reply, reader, writer


class UnpackingDialer:
    def __init__(self, host: str, port: int) -> None:
        self._host = host
        self._port = port

    # (the pair unpacked first, then handed back as it came)
    async def _connect(self) -> Any:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self._host, self._port), timeout=5)
        return reader, writer

    # Fine: the finally closes the writer, which is the connection the
    # reader reads from.
    async def run(self, func: Any) -> Any:
        reader, writer = await self._connect()
        try:
            return await func(reader, writer)
        finally:
            writer.close()
            await writer.wait_closed()

    # Buggy: nothing closes the writer if the request is cancelled.
    async def run_leaky(self, func: Any) -> Any:
        reader, writer = await self._connect()
        result = await func(reader, writer)  # expect: CAN102
        writer.close()
        return result
