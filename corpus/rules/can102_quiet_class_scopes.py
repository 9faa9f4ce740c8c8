"""Entering or leaving a context manager of a class whose method cannot suspend.

`async with Deadline(t, loop):` calls `Deadline.__aenter__`, a coroutine
of the tree that only arms a timer handle and awaits nothing: the entry is
no checkpoint, so tasks made just before it are not yet exposed there (the
gather inside settles them). The same holds for an `__aexit__` that awaits
nothing. The twin's `Session.__aenter__` awaits a connect, which can
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
