"""Releases the analysis follows along the path: an inner finally on the way
out of an exception, a helper that settles the tasks it is given (*args too),
`x = None` once a value is handed off, and tests joined by and/or.

Each correct shape has a buggy twin with a real window.
"""

import asyncio


async def work() -> None:
    await asyncio.sleep(1)


async def settle(*tasks: "asyncio.Task[None]") -> None:
    """Cancels each task and waits until it has finished."""
    for t in tasks:
        t.cancel()
    for t in tasks:
        try:
            await t
        except asyncio.CancelledError:
            pass


async def note(*items: object) -> None:
    """Logs; releases nothing."""
    await asyncio.sleep(0)


class Pumps:
    def __init__(self) -> None:
        self._log: list[str] = []

    # Fine: the inner finally closed the file before the exception reaches
    # the outer finally's await.
    async def nested_finally(self, path: str) -> None:
        try:
            fh = open(path)
            try:
                await self.step()
            finally:
                fh.close()
        finally:
            await self.flush()

    # Buggy twin: the inner finally does not release it.
    async def nested_finally_miss(self, path: str) -> None:
        try:
            fh = open(path)
            try:
                await self.step()
            finally:
                self._log.append("done")
        finally:
            await self.flush()  # expect: CAN102
            fh.close()

    # Fine: the helper cancels and waits for every task it is given.
    async def settled_by_helper(self) -> None:
        a = asyncio.create_task(work())
        b = asyncio.create_task(work())
        try:
            await self.step()
        finally:
            await settle(a, b)
        await self.flush()

    # Buggy twin: the helper only logs the task (its summary releases
    # nothing), so the task is unowned from the first await on.
    async def logged_by_helper(self) -> None:
        a = asyncio.create_task(work())
        try:
            await self.step()
        finally:
            await note(a)  # expect: CAN102
        await self.flush()
        a.cancel()

    # Fine: the task from the last round was cancelled and dropped.
    async def rounds(self, n: int) -> None:
        pending = None
        for _ in range(n):
            if pending is not None and not pending.done():
                pending.cancel()
            pending = None
            await self.flush()
            pending = asyncio.create_task(work())
            self._log.append("started")
        if pending is not None:
            pending.cancel()

    # Buggy twin: the old round's task is never cancelled before the await.
    async def rounds_leak(self, n: int) -> None:
        pending = None
        for _ in range(n):
            await self.flush()  # expect: CAN102
            pending = asyncio.create_task(work())
            self._log.append("started")
        if pending is not None:
            pending.cancel()

    async def step(self) -> None:
        await asyncio.sleep(0)

    async def flush(self) -> None:
        await asyncio.sleep(0)
