"""Leaving an @asynccontextmanager of the tree.

`async with self._maybe_lock():` where the context manager's code after its
yield cannot suspend (it only leaves an asyncio lock, or nothing): leaving
the statement is no checkpoint, so a value made inside it is not exposed
there. A context manager that awaits after its yield (`await
self.flush()`) suspends on exit.
"""

import asyncio
import contextlib
from typing import Any, AsyncIterator


class Pool:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._in_use: set = set()
        self._busy = False

    @contextlib.asynccontextmanager
    async def _maybe_lock(self) -> AsyncIterator[None]:
        if self._busy:
            async with self._lock:
                yield
        else:
            yield

    @contextlib.asynccontextmanager
    async def _lock_then_flush(self) -> AsyncIterator[None]:
        async with self._lock:
            yield
        await self.flush()

    async def flush(self) -> None: ...

    # Fine: leaving _maybe_lock does not suspend.
    async def get(self, make: Any) -> Any:
        async with self._maybe_lock():
            conn = make()
        try:
            await conn.connect()
        except BaseException:
            await conn.close()
            raise
        return conn

    # Buggy: _lock_then_flush awaits a flush after its yield.
    async def get_flushed(self, make: Any) -> Any:
        async with self._lock_then_flush():  # expect: CAN102
            conn = make()
        try:
            await conn.connect()
        except BaseException:
            await conn.close()
            raise
        return conn
