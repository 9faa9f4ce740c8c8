"""Tasks whose checkpoint passes cancellation into them, and task groups.

Awaiting a task directly, through ``asyncio.gather`` or ``asyncio.wait_for``
cancels it together with the caller; once such an await returns, the task is
done. Task groups and nurseries own their children from birth.
No function in this file has a finding.
"""

import asyncio
from typing import Any

import anyio
import trio


class Jobs:
    def __init__(self, store: Any) -> None:
        self._store = store
        self._orphans: set[asyncio.Task] = set()

    async def _fetch(self, key: str) -> bytes:
        await asyncio.sleep(1)
        return key.encode()

    async def _serve_port(self, port: int) -> None:
        await asyncio.sleep(1)

    # Fine: `await t` cancels t with us; afterwards t is done.
    async def fetch_direct(self, key: str) -> None:
        t = asyncio.create_task(self._fetch(key))
        data = await t
        await self._store.put(key, data)

    # Fine: gather cancels its children when it is cancelled.
    async def fetch_both(self, a: str, b: str) -> None:
        ta = asyncio.create_task(self._fetch(a))
        tb = asyncio.create_task(self._fetch(b))
        da, db = await asyncio.gather(ta, tb)
        await self._store.put(a + b, da + db)

    # Fine: wait_for cancels the task on timeout and on caller cancel.
    async def fetch_deadline(self, key: str) -> None:
        t = asyncio.create_task(self._fetch(key))
        data = await asyncio.wait_for(t, timeout=10)
        await self._store.put(key, data)

    # Fine: the shield await is protected (the task is handed to a tracked set
    # if we are interrupted); once it returns, t is done and needs nothing.
    async def fetch_shielded(self, key: str) -> None:
        t = asyncio.create_task(self._fetch(key))
        try:
            data = await asyncio.shield(t)
        except BaseException:
            self._orphans.add(t)
            raise
        await self._store.put(key, data)

    # Fine: asyncio.TaskGroup owns the tasks it creates.
    async def fan_out(self, keys: list[str]) -> None:
        async with asyncio.TaskGroup() as tg:
            for key in keys:
                tg.create_task(self._fetch(key))
                await asyncio.sleep(0)

    # Fine: a trio nursery owns what it starts.
    async def serve_trio(self, ports: list[int]) -> None:
        async with trio.open_nursery() as nursery:
            for port in ports:
                nursery.start_soon(self._serve_port, port)
                await trio.sleep(0)

    # Fine: an anyio task group owns what it starts.
    async def serve_anyio(self, ports: list[int]) -> None:
        async with anyio.create_task_group() as tg:
            for port in ports:
                tg.start_soon(self._serve_port, port)
                await anyio.sleep(0)
