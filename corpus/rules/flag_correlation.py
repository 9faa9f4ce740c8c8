"""A value made on a path where a local flag (or a parameter) has one value
is live only where it has that value: a later branch that needs the other
value has no such value. `closed = True` on one side of an `if`, the
eviction on the other, then `if closed: await ...; raise` before the
eviction's close: no evicted entry waits behind that await. A branch on
something the value's path says nothing of (a flag set on both sides, a
membership test) may still hold it.
"""

import asyncio
from collections import OrderedDict
from typing import Any


class EntryCache:
    def __init__(self, pool: Any, limit: int) -> None:
        self._pool = pool
        self._lock = asyncio.Lock()
        self._entries: "OrderedDict[str, Any]" = OrderedDict()
        self._hot: set = set()
        self._closed = False
        self._limit = limit

    async def _close_entry(self, entry: Any) -> None:
        await entry.aclose()

    async def _announce(self, key: str) -> None:
        await self._pool.publish(key)

    async def _touch(self, key: str) -> None:
        await self._pool.touch(key)

    # Fine: an entry is evicted only where the cache is open, and the branch
    # for a closed cache raises before the eviction's close.
    async def insert(self, key: str, entry: Any) -> None:
        evicted = None
        closed = False
        async with self._lock:
            if self._closed:
                closed = True
            else:
                self._entries[key] = entry
                if len(self._entries) > self._limit:
                    _old_key, evicted = self._entries.popitem(last=False)
        if closed:
            await self._close_entry(entry)
            raise RuntimeError("cache closed")
        if evicted is not None:
            await self._close_entry(evicted)

    # Buggy twin: the flag says nothing of the eviction, and an entry
    # evicted on the announced path waits behind the announcement.
    async def insert_announced(self, key: str, entry: Any, notify: bool) -> None:
        evicted = None
        announce = False
        async with self._lock:
            self._entries[key] = entry
            if notify:
                announce = True
            if len(self._entries) > self._limit:
                _old_key, evicted = self._entries.popitem(last=False)
        if announce:
            await self._announce(key)  # expect: CAN301
        if evicted is not None:
            await self._close_entry(evicted)

    # Fine: the connection is opened only for a key that is not cached, and
    # the branch that awaits for a cached key has none.
    async def lookup(self, key: str, cached: bool) -> Any:
        conn = None
        if not cached:
            conn = await self._pool.connect()
        if cached:
            await self._touch(key)
        if conn is not None:
            try:
                return await conn.fetch(key)
            finally:
                await conn.close()
        return self._entries.get(key)

    # Buggy twin: a hot key says nothing of the connection.
    async def lookup_hot(self, key: str, cached: bool) -> Any:
        conn = None
        if not cached:
            conn = await self._pool.connect()
        if key in self._hot:
            await self._touch(key)  # expect: CAN102
        if conn is not None:
            try:
                return await conn.fetch(key)
            finally:
                await conn.close()
        return self._entries.get(key)
