"""A connection class of the tree that owns a pool once started."""

from typing import Any

import asyncpg


class PoolConn:
    def __init__(self, host: str, database: str) -> None:
        self.host = host
        self.database = database
        self._pool: Any = None

    async def start_pool(self) -> None:
        self._pool = await asyncpg.create_pool(host=self.host, database=self.database)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
