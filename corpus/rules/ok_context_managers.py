"""Correct shapes: context managers and exit stacks own the resource.

No function in this file has a finding.
"""

import asyncio
import os
import contextlib
import socket
from typing import Any

import aiohttp


class Fetcher:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._loop = asyncio.get_event_loop()
        self._ready = asyncio.Event()
        self._stack: contextlib.AsyncExitStack | None = None
        self._procs: dict[str, Any] = {}

    # Fine: the session is owned by `async with`; the websocket opened from it
    # is owned through its parent.
    async def fetch_once(self, url: str) -> str:
        async with aiohttp.ClientSession() as s:
            ws = await s.ws_connect(url)
            await ws.send_str("get")
            return await ws.receive_str()

    # Fine: the websocket's own context manager.
    async def echo(self, session: aiohttp.ClientSession, url: str) -> str:
        async with session.ws_connect(url) as ws:
            await ws.send_str("echo")
            return await ws.receive_str()

    # Fine: a plain `with` owns the socket across the awaits.
    async def probe(self, host: str, port: int) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setblocking(False)
            await self._loop.sock_connect(sock, (host, port))
            await self._loop.sock_sendall(sock, b"PING\n")
            return await self._loop.sock_recv(sock, 4) == b"PONG"

    # Fine: `async with v:` hands v over as the statement begins.
    async def converse(self, key: str) -> bytes:
        conn = await self._client.connect(key)
        async with conn:
            await conn.send(b"hello")
            return await conn.receive()

    # Fine: AsyncExitStack.enter_async_context owns both; pop_all() moves them
    # into an attribute once everything is ready.
    async def open_pair(self, url: str) -> Any:
        async with contextlib.AsyncExitStack() as stack:
            session = await stack.enter_async_context(aiohttp.ClientSession())
            ws = await stack.enter_async_context(session.ws_connect(url))
            await ws.send_str("hello")
            self._stack = stack.pop_all()
        return ws

    # Fine: push_async_callback registers the release right after the create.
    async def spawn_owned(self, key: str, argv: list[str]) -> Any:
        async with contextlib.AsyncExitStack() as stack:
            proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.PIPE)
            stack.push_async_callback(self._kill_and_wait, proc)
            proc.stdin.write(b"init\n")
            await proc.stdin.drain()
            await self._ready.wait()
            self._procs[key] = proc
            stack.pop_all()
        return proc

    async def _kill_and_wait(self, proc: Any) -> None:
        proc.kill()
        await proc.wait()


class WrappedDescriptors:
    # Fine: the descriptor is handed to the stream's constructor as the
    # `async with` begins; the stream closes it on every exit.
    async def read_through_stream(self, fd_stream_cls):
        fd = os.open("/dev/null", os.O_RDONLY)
        async with fd_stream_cls(fd) as stream:
            return await stream.receive_some()
