"""The second family of the tree: caches, whose boundaries are their own."""

from __future__ import annotations

from typing import Any


class BaseCache:
    async def fetch(self, key: str) -> Any:
        raise NotImplementedError


class MemoryCache(BaseCache):
    def __init__(self) -> None:
        self._data: dict[str, Any] = {}

    async def fetch(self, key: str) -> Any:
        return self._data.get(key)


class RedisCache(BaseCache):
    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def fetch(self, key: str) -> Any:
        conn = await self._pool.acquire_connection()
        try:
            return await conn.get(key)
        finally:
            await self._pool.release(conn)
