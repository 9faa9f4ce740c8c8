"""Calls into a base class's helper: `self._adopt(...)` resolves to the one
method of that name in the scan when the caller's own class lacks it, so the
helper's summary (it registers its argument before any await) applies."""
import asyncio


class BaseBackend:
    def __init__(self) -> None:
        self._procs: set = set()

    def _adopt(self, proc) -> None:
        self._procs.add(proc)

    async def _wait_ready_then_adopt(self, proc) -> None:
        await asyncio.sleep(0)
        self._procs.add(proc)


class LocalBackend(BaseBackend):
    # Fine: the base class's helper registers the process before the await.
    async def start(self, argv: list) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        self._adopt(proc)
        await asyncio.sleep(0.1)

    # Buggy: the base class's helper awaits before it registers, so the
    # process is unowned across that await.
    async def start_slow(self, argv: list) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        await self._wait_ready_then_adopt(proc)  # expect: CAN102
