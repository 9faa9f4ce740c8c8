"""Entering or leaving a context manager of a class whose method cannot suspend.

`async with Deadline(t, loop):` calls `Deadline.__aenter__`, a coroutine
of the tree that only arms a timer handle and awaits nothing: the entry is
no checkpoint, so tasks made just before it are not yet exposed there (the
gather inside settles them). The same holds for an `__aexit__` that awaits
nothing, also where a method of the tree annotated to return the class
makes the object (`async with registry.lease(name):` of `def lease(...) ->
Lease`). The twin's `Session.__aenter__` awaits a connect, which can
suspend: a cancellation there leaves the tasks running.
"""

import asyncio
from typing import Any


class Deadline:
    def __init__(self, timeout: float, loop: Any) -> None:
        self._timeout = timeout
        self._loop = loop
        self._handle: Any = None

    async def __aenter__(self) -> "Deadline":
        self._handle = self._loop.call_later(self._timeout, self._expire)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._handle is not None:
            self._handle.cancel()

    def _expire(self) -> None:
        pass


class Session:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def __aenter__(self) -> "Session":
        await self._conn.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self._conn.close()


# Fine: the entry of Deadline cannot suspend; the gather settles the tasks.
async def fetch_all(loop: Any, nodes: list, fetch: Any) -> list:
    jobs = [loop.create_task(fetch(n)) for n in nodes]
    async with Deadline(5.0, loop):
        return await asyncio.gather(*jobs)


# Buggy twin: Session's entry awaits a connect, a checkpoint.
async def fetch_in_session(loop: Any, conn: Any, nodes: list, fetch: Any) -> list:
    jobs = [loop.create_task(fetch(n)) for n in nodes]
    async with Session(conn):  # expect: CAN102
        return await asyncio.gather(*jobs)


class Lease:
    """What Registry.lease hands out: the registry keeps the object, so
    leaving the block has nothing to give back."""

    def __init__(self, pending: Any) -> None:
        self._pending = pending

    async def __aenter__(self) -> Any:
        return await self._pending

    async def __aexit__(self, *exc: Any) -> None:
        pass


class Registry:
    async def _find(self, name: str) -> Any:
        await asyncio.sleep(0)
        return name

    def lease(self, name: str) -> Lease:
        return Lease(self._find(name))

    def session(self, conn: Any) -> Session:
        return Session(conn)


# Fine: the lease a method of the tree makes leaves without suspending; the
# task made inside is owned by the finally right after it.
async def follow(registry: Registry) -> None:
    tracking = None
    async with registry.lease("mount") as mount:
        tracking = asyncio.create_task(mount.track())
    try:
        await tracking
    finally:
        tracking.cancel()


# Buggy twin: the session a method of the tree makes connects on entry.
async def follow_in_session(registry: Registry, conn: Any, loop: Any, nodes: list, fetch: Any) -> list:
    jobs = [loop.create_task(fetch(n)) for n in nodes]
    async with registry.session(conn):  # expect: CAN102
        return await asyncio.gather(*jobs)
