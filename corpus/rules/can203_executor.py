"""CAN203: a resource made by work that keeps running after cancellation.

Cancelling ``await loop.run_in_executor(...)`` or ``await asyncio.to_thread(...)``
cancels only the wait. The thread finishes, opens the socket or file, and its
result is dropped: nothing ever closes it.
"""

import asyncio
import socket
from typing import Any


class Dialer:
    def __init__(self) -> None:
        self._loop = asyncio.get_event_loop()
        self._socks: dict[str, socket.socket] = {}
        self._files: dict[str, Any] = {}
        self._ready = asyncio.Event()

    async def _handshake(self, sock: socket.socket) -> None:
        await self._loop.sock_sendall(sock, b"HELLO\n")

    # Buggy: the connect runs in a thread; cancelling the await abandons the
    # socket the thread is about to return. The handshake after it is
    # protected, so only CAN203 applies.
    async def dial(self, name: str, addr: tuple[str, int]) -> socket.socket:
        sock = await self._loop.run_in_executor(None, socket.create_connection, addr)  # expect: CAN203
        try:
            await self._handshake(sock)
        except BaseException:
            sock.close()
            raise
        self._socks[name] = sock
        return sock

    # Buggy: the same with asyncio.to_thread and open().
    async def open_log(self, path: str) -> Any:
        f = await asyncio.to_thread(open, path, "rb")  # expect: CAN203
        self._files[path] = f
        return f

    # Buggy twice: the thread's socket can be dropped (CAN203), and once we
    # have it, the wait before storing has no cleanup at all (CAN102).
    async def dial_unprotected(self, name: str, addr: tuple[str, int]) -> None:
        loop = asyncio.get_running_loop()
        sock = await loop.run_in_executor(None, socket.create_connection, addr)  # expect: CAN203
        await self._ready.wait()  # expect: CAN102
        self._socks[name] = sock

    # Fine: the thread returns plain bytes, not a resource.
    async def read_config(self, path: str) -> bytes:
        data = await asyncio.to_thread(self._read_bytes, path)
        await self._ready.wait()
        return data

    # Fine: the executor runs a lookup that produces nothing to release.
    async def peer(self, name: str) -> Any:
        return await self._loop.run_in_executor(None, self._socks[name].getpeername)

    def _read_bytes(self, path: str) -> bytes:
        with open(path, "rb") as fh:
            return fh.read()


async def embed_in_thread(model: Any, texts: list, sink: Any) -> None:
    # Fine: a model's output (the catalog's not-remote `create_embedding`,
    # answered in the response as `client.embeddings.create` is) holds
    # nothing a dropped result could leak.
    vectors = await asyncio.to_thread(model.create_embedding, texts)
    await sink.put(vectors)


async def index_in_thread(search: Any, name: str, sink: Any) -> None:
    # Buggy twin: a create the name reads as remote makes a server-side
    # index the dropped result would have named.
    index = await asyncio.to_thread(search.create_index, name)  # expect: CAN203
    await sink.put(index)
