"""A race whose loser the function lets run on, and its twins.

`await asyncio.wait([a, b], return_when=FIRST_COMPLETED)` as a statement
drops the pending set; a function that never cancels the losing task and
leaves it running on its normal path lets it run on by design, so a
cancellation at the wait changes nothing for it. The twins cancel the
loser on the normal path, or keep the pending set to cancel it: there the
wait is a window.
"""

import asyncio
from typing import Any


class Prompt:
    def __init__(self, reader: Any, abort: asyncio.Semaphore) -> None:
        self._reader = reader
        self._abort = abort

    # Fine: whichever finishes first, the other keeps waiting, on purpose.
    async def wait_for_enter(self) -> None:
        line = asyncio.create_task(self._reader.readline())
        aborted = asyncio.create_task(self._abort.acquire())
        await asyncio.wait([line, aborted], return_when=asyncio.FIRST_COMPLETED)

    # Fine: the closing watch is awaited only when it won the race.
    async def finished(self, done_fut: asyncio.Future, closed: Any) -> None:
        watch = asyncio.create_task(closed.wait())
        await asyncio.wait([done_fut, watch], return_when=asyncio.FIRST_COMPLETED)
        if watch.done():
            await watch

    # Buggy twin: the loser is cancelled on the normal path, but a
    # cancellation at the wait leaves both running.
    async def wait_either(self) -> None:
        line = asyncio.create_task(self._reader.readline())
        aborted = asyncio.create_task(self._abort.acquire())
        await asyncio.wait([line, aborted], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        line.cancel()
        aborted.cancel()

    # Buggy twin: the pending set is kept and cancelled.
    async def wait_kept(self) -> None:
        line = asyncio.create_task(self._reader.readline())
        aborted = asyncio.create_task(self._abort.acquire())
        done, pending = await asyncio.wait(  # expect: CAN102
            [line, aborted], return_when=asyncio.FIRST_COMPLETED
        )
        for t in pending:
            t.cancel()


class Spawner:
    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn

    # Fine: the spawn is given one second, then runs on in the background
    # while the caller is answered; the sets are never read.
    async def start(self, user: str) -> str:
        job = asyncio.create_task(self._spawn(user))
        done, pending = await asyncio.wait([job], timeout=1)
        if job.done() and job.exception():
            raise RuntimeError("spawn failed")
        return "pending"

    # Buggy twin: what is still pending after the second is cancelled, so
    # the job is the function's to stop; a cancellation at the wait skips
    # that.
    async def start_or_give_up(self, user: str) -> str:
        job = asyncio.create_task(self._spawn(user))
        done, pending = await asyncio.wait([job], timeout=1)  # expect: CAN102
        for t in pending:
            t.cancel()
        return "done" if done else "gave up"
