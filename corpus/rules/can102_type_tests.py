"""A value that is the resource only when a type test says so.

`sock = await self._connect_one(addr)` of a helper that returns an open
socket or the exception it met; `if isinstance(sock, socket.socket):
return sock` hands the socket on, and past that test `sock` is no socket:
the next attempt's await holds nothing of it. The test must stand alone
and its branch must hand the value on: `isinstance(...) and ready` failing
says nothing of the type, and a branch that only logs keeps the socket.
"""

import asyncio
import socket
from typing import Any, Union


class Proxy:
    async def _connect_one(self, addr: Any) -> Union[socket.socket, OSError]:
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        try:
            sock.setblocking(False)
            await loop.sock_connect(sock, addr)  # expect: CAN102
            return sock
        except OSError as e:
            return e

    # Fine: past the test, what is left is an exception.
    async def connect(self, addrs: list) -> Any:
        errors = []
        for addr in addrs:
            sock = await self._connect_one(addr)
            if isinstance(sock, socket.socket):
                return sock
            errors.append(sock)
        raise OSError(errors)

    # Buggy twin: the test also needs `ready`; a socket that is not ready
    # is kept in the list across the next attempt.
    async def connect_ready(self, addrs: list, ready: bool) -> Any:
        errors = []
        for addr in addrs:
            sock = await self._connect_one(addr)  # expect: CAN102
            if isinstance(sock, socket.socket) and ready:
                return sock
            errors.append(sock)
        raise OSError(errors)
