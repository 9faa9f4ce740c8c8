"""Keys, closures and registries of self:

- a dict holds its keys: `self._conns[conn] = task` registers conn too;
- a helper that uses a value only as a key (`v in self._reg`,
  `self._reg[v]`, `self._reg.pop(v)`) cleans up the entry, not the value;
- a function defined in a method closes over that method's `self`, so
  `self._cleanup(...)` there resolves to the class's method;
- a class whose method releases each element of a registry it holds owns
  what is in it.
"""

import asyncio
from typing import Any

from .store import open_conn


class Conn:
    def __init__(self, sock: Any) -> None:
        self._sock = sock

    async def handle(self) -> None:
        await asyncio.sleep(1)

    def close(self) -> None:
        self._sock.close()


class Proxy:
    def __init__(self, server: Any) -> None:
        self._server = server
        self._conns: dict = {}
        self._writers: dict = {}

    # Fine: the previous pass's connection is a key of self._conns by the
    # time the loop waits again.
    async def serve(self) -> None:
        while True:
            sock = await self._server.accept()
            conn = Conn(sock)
            self._conns[conn] = asyncio.create_task(conn.handle())

    # Buggy twin: the connection is only a value of a local dict.
    async def serve_local(self) -> None:
        local: dict = {}
        while True:
            sock = await self._server.accept()  # expect: CAN102
            conn = Conn(sock)
            local[conn] = asyncio.create_task(conn.handle())

    async def _cleanup_writer(self, key: str) -> None:
        if key in self._writers:
            try:
                await self._writers[key].aclose()
            finally:
                self._writers.pop(key, None)

    # Fine: the replayed id names an entry; the helper that cleans up by it
    # does nothing to the id itself, which holds nothing.
    def replayer(self, store: Any, writer: Any):
        async def replay() -> None:
            async with writer:
                key = await store.replay_after("x")
                if key and key not in self._writers:
                    try:
                        self._writers[key] = writer
                        await writer.send(key)
                    finally:
                        await self._cleanup_writer(key)

        return replay


class Pool:
    def __init__(self) -> None:
        self._by_id: dict = {}

    def add(self, key: str, conn: Any) -> None:
        self._by_id[key] = conn

    async def close(self) -> None:
        for conn in list(self._by_id.values()):
            await conn.aclose()
        self._by_id.clear()


class Service:
    def __init__(self, log: Any) -> None:
        self._log = log
        self._pools: list = []

    # Buggy: a pool owns what it holds (its close releases every element),
    # and this one is not registered across the log flush.
    async def start(self, url: str) -> Pool:
        conn = await open_conn(url)
        pool = Pool()
        pool.add("main", conn)
        try:
            await self._log.flush()  # expect: CAN101
        except Exception:
            await pool.close()
            raise
        self._pools.append(pool)
        return pool
