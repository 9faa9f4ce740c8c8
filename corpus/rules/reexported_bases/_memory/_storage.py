from typing import Any

from ._store_client import MemoryStoreClient, SocketStoreClient


class MemoryStorage:
    def __init__(self, purge_on_start: bool) -> None:
        self._purge_on_start = purge_on_start

    async def _purge_if_needed(self, client: Any) -> None:
        if self._purge_on_start:
            await client.purge()

    async def create_client(self, name: str) -> MemoryStoreClient:
        client = await MemoryStoreClient.open(name)
        await self._purge_if_needed(client)
        return client

    async def create_socket_client(self, host: str) -> SocketStoreClient:
        client = await SocketStoreClient.open(host)
        await self._purge_if_needed(client)  # expect: CAN102
        return client
