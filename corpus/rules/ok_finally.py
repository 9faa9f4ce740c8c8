"""Correct shapes: ``finally`` blocks that release what is not yet owned.

``finally`` runs on cancellation too. A ``registered`` flag keeps the
cleanup from touching a resource after the registry took it over.
No function in this file has a finding.
"""

import asyncio
import os
from typing import Any


class Workers:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = asyncio.Lock()
        self._ready = asyncio.Event()
        self._conns: dict[str, Any] = {}
        self._tasks: dict[str, asyncio.Task] = {}

    async def _serve(self, key: str) -> None:
        await asyncio.sleep(1)

    # Fine: `finally` with a registered flag.
    async def open_flagged(self, key: str) -> Any:
        conn = await self._client.connect(key)
        reader = asyncio.create_task(self._serve(key))
        registered = False
        try:
            await conn.send(b"hello")
            async with self._lock:
                self._conns[key] = conn
                self._tasks[key] = reader
            registered = True
        finally:
            if not registered:
                reader.cancel()
                await conn.close()
        return conn

    # Fine: every task of the batch is cancelled in `finally`; the loop
    # variable is bound to each element of the list, so all are released.
    async def run_batch(self, keys: list[str]) -> int:
        tasks = []
        for key in keys:
            tasks.append(asyncio.create_task(self._serve(key)))
        try:
            done, _pending = await asyncio.wait(tasks, timeout=30)
            return len(done)
        finally:
            for t in tasks:
                t.cancel()

    # Fine: a scratch descriptor closed unconditionally in `finally`.
    async def scratch_size(self, path: str) -> int:
        fd = os.open(path, os.O_RDONLY)
        try:
            await self._ready.wait()
            return os.fstat(fd).st_size
        finally:
            os.close(fd)

    # Fine: `finally` with the flag, and the normal path transfers by return.
    async def start_returned(self, key: str) -> asyncio.Task:
        task = asyncio.create_task(self._serve(key))
        handed_over = False
        try:
            await self._ready.wait()
            handed_over = True
            return task
        finally:
            if not handed_over:
                task.cancel()
