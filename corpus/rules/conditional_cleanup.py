"""Cleanup that runs only on some paths of an `except BaseException:`.

A handler that releases through a holder made later in the try
(`if entry is not None: await entry.close()`) does nothing for a value made
before the holder existed, when the cancellation lands before the holder is
set: on that path its test cannot hold. Rebinding the holder to None
(`entry = None`) forgets the holder, not what the relation says it will
hold later.
"""

import asyncio
import socket
from typing import Any


class Tunnel:
    def __init__(self, sock: Any, exec_id: str) -> None:
        self.sock = sock
        self.exec_id = exec_id

    async def close(self) -> None:
        self.sock.close()


class PtyBackend:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._tunnels: dict[str, Tunnel] = {}

    # Buggy: the socket exists before `entry`; cancelled while the exec
    # starts, the handler sees entry None and drops the socket.
    async def open_late_holder(self, host: str) -> Tunnel:
        loop = asyncio.get_running_loop()
        sock = await loop.run_in_executor(None, socket.create_connection, (host, 22))  # expect: CAN203
        entry = None
        try:
            exec_id = await self._client.exec_start(host)  # expect: CAN102
            entry = Tunnel(sock, exec_id)
            self._tunnels[exec_id] = entry
            await self._client.exec_ready(exec_id)
        except BaseException:
            if entry is not None:
                await entry.close()
            raise
        return entry

    # Correct: when the holder does not exist yet, the handler closes the
    # socket itself.
    async def open_else_branch(self, host: str) -> Tunnel:
        conn = socket.create_connection((host, 22))
        entry = None
        try:
            exec_id = await self._client.exec_start(host)
            entry = Tunnel(conn, exec_id)
            await self._client.exec_ready(exec_id)
        except BaseException:
            if entry is not None:
                await entry.close()
            else:
                conn.close()
            raise
        self._tunnels[exec_id] = entry
        return entry

    # Correct: the holder is made before the first await, so the handler's
    # test holds on every path a cancellation can take.
    async def open_holder_first(self, host: str) -> Tunnel:
        conn = socket.create_connection((host, 22))
        entry = None
        try:
            entry = Tunnel(conn, "")
            entry.exec_id = await self._client.exec_start(host)
            await self._client.exec_ready(entry.exec_id)
        except BaseException:
            if entry is not None:
                await entry.close()
            raise
        self._tunnels[entry.exec_id] = entry
        return entry

    # Correct: an unconditional release in the handler.
    async def open_plain(self, host: str) -> Any:
        conn = socket.create_connection((host, 22))
        try:
            await self._client.exec_start(host)
        except BaseException:
            conn.close()
            raise
        return conn
