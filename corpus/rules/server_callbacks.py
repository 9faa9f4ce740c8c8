"""Connection handlers of asyncio's servers.

`asyncio.start_server(self._handle, ...)` runs each connection's handler
in a task the server keeps no handle to and never cancels (closing the
server closes its listeners, not the handlers). A handler the module hands
only to such a server meets no cancellation at its checkpoints but the
loop's teardown, as the process ends. The twins: a handler the module also
awaits in place, and one that hands out its own task so that a session
can cancel it later.
"""

import asyncio
import functools
from typing import Any, Optional


class Relay:
    def __init__(self, dial: Any) -> None:
        self._dial = dial
        self._sessions: "asyncio.Queue[Any]" = asyncio.Queue()

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self._handle, host, port)
        unix = await asyncio.start_unix_server(functools.partial(self._handle_unix, "ctl"), path="/tmp/ctl")
        tracked = await asyncio.start_server(self._handle_tracked, host, port + 1)
        async with server, unix, tracked:
            await server.serve_forever()

    # Fine: only the server runs it, in a task nobody can cancel.
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = await self._dial()
        try:
            await upstream.handshake()
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(reader, writer)

    # Fine: the same through functools.partial.
    async def _handle_unix(self, name: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = await self._dial()
        try:
            await upstream.handshake()
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(reader, writer)

    # Buggy: it hands its own task to the session registry, which cancels
    # it to end the session.
    async def _handle_tracked(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._sessions.put(asyncio.current_task())
        upstream = await self._dial()
        try:
            await upstream.handshake()  # expect: CAN101
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(reader, writer)


class Probe:
    def __init__(self, dial: Any) -> None:
        self._dial = dial

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self._check, host, port)
        async with server:
            await server.serve_forever()

    async def self_test(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.wait_for(self._check(reader, writer), 5)

    # Buggy: self_test also awaits it, under a timeout that cancels it.
    async def _check(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = await self._dial()
        try:
            await upstream.handshake()  # expect: CAN101
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(reader, writer)


class _Lane:
    def __init__(self, dial: Any) -> None:
        self._dial = dial

    # Fine: awaited in place only by Lanes._route, through a local
    # annotated with this class, and _route runs only as a connection
    # handler.
    async def _attach(self, writer: asyncio.StreamWriter) -> None:
        upstream = await self._dial()
        try:
            await upstream.handshake()
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(writer)


class Lanes:
    def __init__(self) -> None:
        self._lanes: dict = {}

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self._route, host, port)
        async with server:
            await server.serve_forever()

    async def _route(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        lane: Optional[_Lane] = self._lanes.get(await reader.readline())
        if lane is not None:
            await lane._attach(writer)


class _Gauge:
    def __init__(self, dial: Any) -> None:
        self._dial = dial

    # Buggy: Gauges.sample awaits it under a timeout, through a local
    # annotated with this class.
    async def _read(self) -> None:
        upstream = await self._dial()
        try:
            await upstream.handshake()  # expect: CAN101
        except Exception:
            await upstream.aclose()
            raise
        await upstream.pipe(None)


class Gauges:
    def __init__(self) -> None:
        self._gauges: dict = {}

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self._sample, host, port)
        async with server:
            await server.serve_forever()

    async def _sample(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        gauge: Optional[_Gauge] = self._gauges.get(await reader.readline())
        if gauge is not None:
            await asyncio.wait_for(gauge._read(), 5)
