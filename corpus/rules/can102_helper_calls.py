"""Calls into the scanned code: the callee's summary decides.

A helper defined here that stores its argument before any checkpoint takes
ownership at the call. A helper that awaits first and stores afterwards does
not: the call itself is a checkpoint in the caller's window, whatever its
name suggests.
"""

import asyncio
from typing import Any

_LIVE: set[asyncio.Task] = set()


def _keep(task: asyncio.Task) -> None:
    _LIVE.add(task)
    task.add_done_callback(_LIVE.discard)


class Runner:
    def __init__(self) -> None:
        self._procs: set[Any] = set()
        self._slots = asyncio.Semaphore(4)
        self._ready = asyncio.Event()

    def _adopt(self, proc: Any) -> None:
        self._procs.add(proc)

    async def _adopt_later(self, proc: Any) -> None:
        await self._slots.acquire()
        self._procs.add(proc)

    async def _tick(self) -> None:
        await asyncio.sleep(1)

    # Fine: `_adopt` stores the process before the first await of the caller.
    async def run_adopted(self, argv: list[str]) -> int:
        proc = await asyncio.create_subprocess_exec(*argv)
        self._adopt(proc)
        return await proc.wait()

    # Buggy: `_adopt_later` awaits before it stores, so cancellation at the
    # call leaves the process unowned (the name says adopt; the summary wins).
    async def run_adopted_late(self, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        await self._adopt_later(proc)  # expect: CAN102

    # Fine: a module-level helper in the same file registers the task.
    async def start_ticker(self) -> None:
        t = asyncio.create_task(self._tick())
        _keep(t)
        await self._ready.wait()
