# expect-mode: strict
"""CAN302 (strict): a cleanup ``await`` in a cancellation handler or
``finally`` that a second cancellation can interrupt.

The handler runs because the task is being cancelled; a repeated cancel (a
supervisor that cancels twice, a timeout around the caller) lands on the
cleanup await itself and abandons it. Shielding the cleanup settles it.
"""

import asyncio
from typing import Any

import aiohttp
import anyio
import trio


class Links:
    def __init__(self, url: str) -> None:
        self._url = url
        self._ready = asyncio.Event()
        self._conn: tuple[aiohttp.ClientSession, Any] | None = None
        self._procs: set[Any] = set()
        self._streams: list[Any] = []

    # Buggy (strict): the close in the BaseException handler is not shielded.
    async def connect(self) -> Any:
        session = aiohttp.ClientSession()
        try:
            ws = await session.ws_connect(self._url)
        except BaseException:
            await session.close()  # expect: CAN302
            raise
        self._conn = (session, ws)
        return ws

    # Buggy (strict): the wait in `finally` can be cut short by a second
    # cancellation, leaving a zombie.
    async def run_registered(self, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        registered = False
        try:
            await self._ready.wait()
            self._procs.add(proc)
            registered = True
        finally:
            if not registered:
                proc.kill()
                await proc.wait()  # expect: CAN302

    # Fine: the close runs shielded; re-raise afterwards.
    async def connect_shielded(self) -> Any:
        session = aiohttp.ClientSession()
        try:
            ws = await session.ws_connect(self._url)
        except BaseException:
            await asyncio.shield(session.close())
            raise
        self._conn = (session, ws)
        return ws

    # Fine: trio's shielded cancel scope around the cleanup.
    async def attach_trio(self, host: str, port: int) -> None:
        stream = await trio.open_tcp_stream(host, port)
        try:
            await stream.send_all(b"HELLO\n")
        except BaseException:
            with trio.CancelScope(shield=True):
                await stream.aclose()
            raise
        self._streams.append(stream)

    # Fine: anyio's shielded cancel scope around the cleanup.
    async def attach_anyio(self, host: str, port: int) -> None:
        stream = await anyio.connect_tcp(host, port)
        try:
            await stream.send(b"HELLO\n")
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stream.aclose()
            raise
        self._streams.append(stream)
