import socket
from typing import Dict

from typing_extensions import Self

from reexported_bases._base import StoreClient


class MemoryStoreClient(StoreClient):
    def __init__(self, name: str) -> None:
        self._name = name
        self._values: Dict[str, object] = {}

    @classmethod
    async def open(cls, name: str) -> Self:
        return cls(name)

    async def get(self, key: str) -> object:
        return self._values.get(key)

    async def purge(self) -> None:
        self._values.clear()


class SocketStoreClient(StoreClient):
    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    @classmethod
    async def open(cls, host: str) -> Self:
        sock = socket.create_connection((host, 7000))
        return cls(sock)

    async def get(self, key: str) -> object:
        return self._sock.recv(1024)

    async def purge(self) -> None:
        self._sock.sendall(b"PURGE")

    async def close(self) -> None:
        self._sock.close()
