"""CAN102: a resource is live across a checkpoint and nothing would release it.

The typical shape is the registry hand-over: the task or process exists, then
``async with self._lock:`` guards the insert. When the lock is contended and
the caller is cancelled while waiting for it, the resource is unreachable.
"""

import asyncio
import os
from typing import Any, Awaitable, Callable

from filelock import AsyncFileLock


class Supervisor:
    def __init__(self, bus: Any) -> None:
        self._bus = bus
        self._lock = asyncio.Lock()
        self._ready = asyncio.Event()
        self._kick = asyncio.Event()
        self._by_name: dict[str, asyncio.Task] = {}
        self._procs: dict[str, Any] = {}
        self._pipes: dict[str, tuple[int, int]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._urgent: set[asyncio.Task] = set()
        self._pinned: dict[str, asyncio.Task] = {}

    async def _run(self, name: str) -> None:
        await asyncio.sleep(1)

    # Buggy: the task exists, then the insert waits for the lock.
    async def start(self, name: str, job: Callable[[], Awaitable[None]]) -> None:
        task = asyncio.create_task(job())
        async with self._lock:  # expect: CAN102
            self._by_name[name] = task

    # Buggy: the same hand-over for a child process.
    async def spawn(self, name: str, argv: list[str]) -> Any:
        proc = await asyncio.create_subprocess_exec(*argv)
        async with self._lock:  # expect: CAN102
            self._procs[name] = proc
        return proc

    # Buggy: create, announce, then register -- the announcement is a
    # checkpoint while the task belongs to nobody.
    async def launch_and_announce(self, name: str) -> None:
        t = asyncio.create_task(self._run(name))
        await self._bus.publish("started", name)  # expect: CAN102
        self._tasks.add(t)

    # Buggy: both pipe ends are plain integers until they are stored.
    async def make_pipe(self, name: str) -> None:
        r, w = os.pipe()
        await self._ready.wait()  # expect: CAN102
        self._pipes[name] = (r, w)

    # Buggy: one branch registers before the await, the other does not.
    async def schedule(self, job: str, urgent: bool) -> None:
        t = asyncio.create_task(self._run(job))
        if urgent:
            self._urgent.add(t)
        else:
            self._bus.note("queued", job)
        await self._kick.wait()  # expect: CAN102
        self._tasks.add(t)

    # Buggy: inside the loop, pinned tasks are stored at once; the others wait
    # for the throttle first.
    async def start_all(self, names: list[str]) -> None:
        for name in names:
            t = asyncio.create_task(self._run(name))
            if name.startswith("pinned-"):
                self._pinned[name] = t
                continue
            await self._ready.wait()  # expect: CAN102
            self._tasks.add(t)

    # Buggy: the process is live across every step of the `async for` while
    # the banner is read.
    async def follow(self, name: str, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)
        async for line in proc.stdout:  # expect: CAN102
            if line.startswith(b"READY"):
                break
        self._procs[name] = proc

    # Buggy: asyncio.wait does not pass the caller's cancellation into the
    # tasks it waits for (unlike gather / wait_for): both keep running.
    async def race(self, a: Callable[[], Awaitable[int]], b: Callable[[], Awaitable[int]]) -> int:
        ta = asyncio.create_task(a())
        tb = asyncio.create_task(b())
        done, pending = await asyncio.wait({ta, tb}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        for t in pending:
            t.cancel()
        return next(iter(done)).result()


class Cluster:
    def __init__(self, path: str) -> None:
        self._flock = AsyncFileLock(path)
        self._workers: dict[str, asyncio.Task] = {}

    async def _work(self, name: str) -> None:
        await asyncio.sleep(1)

    # Buggy: the lock type is not known to release without suspending, so its
    # exit is a checkpoint; the task is registered only after the block.
    async def add_worker(self, name: str) -> None:
        async with self._flock:  # expect: CAN102
            t = asyncio.create_task(self._work(name))
        self._workers[name] = t
