"""Wrappers, and releases named after `aclose`.

A parameter rebound to a wrapper of itself (`stream = TLSStream(stream)`)
is still the caller's stream: the caller closes it, so a cancellation
inside this function leaks nothing of its own. A wrapper bound to a new
name is this function's to close.

A helper whose name says it closes (`aclose_forcefully(stream)`,
`self._aclose_quietly(conn)`) releases what it is given, and what was made
from it: a connection wrapping the stream is closed with the stream.
"""

from typing import Any


class TLSStream:
    def __init__(self, raw: Any, ctx: Any) -> None:
        self.raw = raw
        self.ctx = ctx

    async def handshake(self) -> None: ...

    async def aclose(self) -> None:
        await self.raw.aclose()


# Fine: the name still denotes the caller's stream.
async def serve_tls(stream: Any, ctx: Any) -> Any:
    stream = TLSStream(stream, ctx)
    try:
        await stream.handshake()
    except Exception:
        await stream.aclose()
        raise
    return stream


# Buggy: a wrapper of this function's own, closed only on errors.
async def serve_tls_named(raw: Any, ctx: Any) -> Any:
    tls = TLSStream(raw, ctx)
    try:
        await tls.handshake()  # expect: CAN101
    except Exception:
        await tls.aclose()
        raise
    return tls


async def aclose_forcefully(resource: Any) -> None: ...


# Fine: closing the stream on cancellation closes the connection made of it.
async def open_channel(open_stream: Any, make_connection: Any) -> Any:
    stream = await open_stream()
    try:
        conn = make_connection.create_connection(stream)
        await conn.handshake()
        return conn
    except BaseException:
        await aclose_forcefully(stream)
        raise


# Buggy: the same close, only on ordinary errors.
async def open_channel_errors_only(open_stream: Any, make_connection: Any) -> Any:
    stream = await open_stream()
    try:
        conn = make_connection.create_connection(stream)
        await conn.handshake()  # expect: CAN101
        return conn
    except Exception:
        await aclose_forcefully(stream)
        raise
