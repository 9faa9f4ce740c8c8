"""A record of the tree (a dataclass) made with nothing of the function's in
it holds nothing yet: each field at its default. What is stored in it later
is followed on its own, so the empty record is no resource across an await
before the first store.
"""

import asyncio
from dataclasses import dataclass
from typing import Any


@dataclass
class Handoff:
    stream: Any = None
    session: Any = None

    async def cleanup(self) -> None:
        if self.stream is not None:
            await self.stream.aclose()
            self.stream = None
        if self.session is not None:
            await self.session.close()
            self.session = None


# Fine: at the await the record is still empty; the stream is stored in it
# only once the await has returned.
async def detach(src: Any) -> Handoff:
    res = Handoff()
    try:
        res.stream = await src.detach_stream()
        res.session = src.session
        src.session = None
    except Exception:
        await res.cleanup()
        raise
    return res


# Leaks: the record is made with a stream this function opened, and only
# `except Exception` cleans it up across the second await.
async def detach_opened(src: Any) -> Handoff:
    res = Handoff(stream=await src.open_stream())
    try:
        res.session = await src.detach_session()  # expect: CAN101
    except Exception:
        await res.cleanup()
        raise
    return res


@dataclass(frozen=True)
class StoreKey:
    user: str
    resource: str


@dataclass
class Lease:
    name: str
    proc: Any = None


class TokenCache:
    def __init__(self, store: Any) -> None:
        self._store = store

    def _key(self, user: str, resource: str) -> StoreKey:
        return StoreKey(user=user, resource=resource)

    async def _lease(self, user: str) -> StoreKey:
        return StoreKey(user=user, resource=await self._store.reserve(user))

    # Fine: the key is put together here from plain values, without a
    # suspension; deleting the stored token under it on a failed refresh is
    # not releasing the key, which names nothing this function created.
    async def refresh(self, user: str, resource: str) -> Any:
        key = self._key(user, resource)
        try:
            return await self._store.refresh(key)
        except ValueError:
            await self._store.delete(key)
            raise

    # Leaks: the awaited helper reserved a slot on the store and names it in
    # the record it returns; only `except ValueError` gives it back.
    async def refresh_leased(self, user: str) -> Any:
        key = await self._lease(user)
        try:
            return await self._store.refresh(key)  # expect: CAN101
        except ValueError:
            await self._store.delete(key)
            raise

    # Leaks: the record names the process started here; only `except
    # ValueError` stops it.
    async def run_leased(self, name: str) -> Any:
        proc = await asyncio.create_subprocess_exec("worker", name)
        lease = Lease(name=name, proc=proc)
        try:
            await self._store.ping()  # expect: CAN101
        except ValueError:
            await self._store.stop(lease)
            raise
        return lease
