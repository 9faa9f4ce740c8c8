"""Awaits that cannot deliver cancellation: an async function of the scanned
tree that never suspends returns without ever giving the event loop a turn,
so cancelling the caller cannot land there. Whether a function suspends is
worked out through the calls it awaits. The twins await something that
does suspend.
"""

import asyncio
from typing import Any


async def _heartbeat() -> None:
    """A task's work: it runs until cancelled."""
    while True:
        await asyncio.sleep(1)


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, object] = {}
        self._lock = asyncio.Lock()

    async def _record(self, key: str) -> None:
        """async for the interface's sake: no await inside."""
        self._entries.setdefault(key, None)

    async def _record_twice(self, key: str) -> None:
        """awaits only a function that never suspends."""
        await self._record(key)
        await self._record(key + "/b")

    async def _flush(self) -> None:
        await asyncio.sleep(0)

    # Fine: _record never suspends, so the task is registered before any
    # cancellation can land.
    async def start(self, key: str) -> None:
        task = asyncio.create_task(_heartbeat())
        await self._record_twice(key)
        self._entries[key] = task

    # Buggy twin: _flush suspends.
    async def start_flushing(self, key: str) -> None:
        task = asyncio.create_task(_heartbeat())
        await self._flush()  # expect: CAN102
        self._entries[key] = task

    # Buggy twin: a function that awaits one that suspends suspends too.
    async def _flush_all(self) -> None:
        await self._record("all")
        await self._flush()

    async def start_flushing_all(self, key: str) -> None:
        task = asyncio.create_task(_heartbeat())
        await self._flush_all()  # expect: CAN102
        self._entries[key] = task


class Lifespan:
    def __init__(self) -> None:
        self._inbox = asyncio.Queue()
        self._bounded = asyncio.Queue(maxsize=1)
        self._tasks: dict[str, "asyncio.Task[None]"] = {}

    # Fine: a queue made with no maxsize is never full, so put() returns at
    # once and the task is registered before any cancellation can land.
    async def begin(self, key: str) -> None:
        task = asyncio.create_task(_heartbeat())
        await self._inbox.put(key)
        self._tasks[key] = task

    # Buggy twin: a bounded queue's put waits while it is full.
    async def begin_bounded(self, key: str) -> None:
        task = asyncio.create_task(_heartbeat())
        await self._bounded.put(key)  # expect: CAN102
        self._tasks[key] = task

    # Fine: the same with a local unbounded queue.
    async def begin_local(self, key: str) -> "asyncio.Queue[str]":
        inbox = asyncio.Queue()
        task = asyncio.create_task(_heartbeat())
        await inbox.put(key)
        self._tasks[key] = task
        return inbox


def quiet_deadline(delay: "float | None"):
    """A helper that only hands out a timeout scope: entering and leaving
    it never suspends."""
    if delay is None:
        return asyncio.timeout(None)
    loop = asyncio.get_running_loop()
    return asyncio.timeout_at(loop.time() + delay)


def noisy_deadline(delay: float, gate: "asyncio.Semaphore"):
    """A helper that sometimes hands out a semaphore, whose enter waits."""
    if delay > 10:
        return gate
    return asyncio.timeout(delay)


class Upgrader:
    def __init__(self) -> None:
        self._conns: dict[str, object] = {}

    # Fine: the scope's exit does not suspend, so the task is registered
    # before any cancellation can land.
    async def upgrade(self, key: str) -> None:
        async with quiet_deadline(5.0):
            task = asyncio.create_task(_heartbeat())
        self._conns[key] = task

    # Buggy twin: the helper may return a semaphore.
    async def upgrade_gated(self, key: str, gate: "asyncio.Semaphore") -> None:
        async with noisy_deadline(5.0, gate):  # expect: CAN102
            task = asyncio.create_task(_heartbeat())
        self._conns[key] = task


from typing import Protocol


class Executor(Protocol):
    async def launch(self, job: str) -> None: ...

    async def aclose(self) -> None:
        """Stop the executor."""


class Pool:
    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._jobs: dict = {}

    def _acquire(self) -> Executor:
        return self._factory()

    # Buggy: a Protocol's stub says nothing of what implementations do:
    # launch() may suspend, and only `except Exception` closes the executor.
    async def run(self, job: str) -> None:
        ex = self._acquire()
        try:
            await ex.launch(job)  # expect: CAN101
        except Exception:
            await ex.aclose()
            raise
        self._jobs[job] = ex
