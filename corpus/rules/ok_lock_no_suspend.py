"""Context managers whose exit never suspends.

Entering ``async with self._lock:`` can wait (a checkpoint), but releasing an
``asyncio.Lock`` / ``Semaphore`` / ``Condition`` or leaving an
``asyncio.timeout`` block does not. A resource created inside such a block
and handed over before the next real checkpoint has no window.
No function in this file has a finding.
"""

import asyncio
from typing import Any


class Pool:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._sem = asyncio.Semaphore(8)
        self._cond = asyncio.Condition()
        self._workers: dict[str, asyncio.Task] = {}
        self._procs: dict[str, Any] = {}

    async def _work(self, name: str) -> None:
        await asyncio.sleep(1)

    # Fine: created and registered inside the lock body.
    async def spawn_worker(self, name: str) -> None:
        async with self._lock:
            t = asyncio.create_task(self._work(name))
            self._workers[name] = t

    # Fine: registered right after the block; the Semaphore's exit does not
    # suspend, so there is no checkpoint in between.
    async def spawn_limited(self, name: str) -> None:
        async with self._sem:
            t = asyncio.create_task(self._work(name))
        self._workers[name] = t

    # Fine: the process is created and stored under the lock.
    async def spawn_process(self, name: str, argv: list[str]) -> None:
        async with self._lock:
            proc = await asyncio.create_subprocess_exec(*argv)
            self._procs[name] = proc

    # Fine: Condition exit, then notify (synchronous) and registration.
    async def spawn_notify(self, name: str) -> None:
        async with self._cond:
            t = asyncio.create_task(self._work(name))
            self._cond.notify_all()
        self._workers[name] = t

    # Fine: leaving an asyncio.timeout block is not a checkpoint.
    async def spawn_with_deadline(self, name: str, argv: list[str]) -> None:
        async with asyncio.timeout(10):
            async with self._lock:
                t = asyncio.create_task(self._work(name))
        self._workers[name] = t
