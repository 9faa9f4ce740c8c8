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


class Waiters:
    def __init__(self, ready: asyncio.Event, flushed: asyncio.Event) -> None:
        self._ready = ready
        self._flushed = flushed

    # Fine: the winner's result is read from the done set; the pending set
    # is never touched, so the loser runs on as on a cancellation.
    async def first_signal(self, timeout: float) -> str:
        a = asyncio.create_task(self._ready.wait())
        b = asyncio.create_task(asyncio.sleep(timeout))
        done, _ = await asyncio.wait([a, b], return_when=asyncio.FIRST_COMPLETED)
        return "ready" if a in done else "timeout"

    # Fine: a timeout leaves what is still pending running (only counted,
    # then a TimeoutError), as a cancellation at the wait does.
    async def both(self, timeout: float) -> list:
        started = [asyncio.create_task(e.wait()) for e in (self._ready, self._flushed)]
        done, pending = await asyncio.wait(started, timeout=timeout)
        if len(pending) != 0:
            raise asyncio.TimeoutError()
        return [t.result() for t in done]

    # Buggy twin: the pending set is counted, then cancelled on a timeout.
    async def both_or_stop(self, timeout: float) -> list:
        started = [asyncio.create_task(e.wait()) for e in (self._ready, self._flushed)]
        done, pending = await asyncio.wait(started, timeout=timeout)  # expect: CAN102
        if pending:
            for t in pending:
                t.cancel()
            raise asyncio.TimeoutError()
        return [t.result() for t in done]

    # Buggy twin: the race's tasks are swept from a written-out list on the
    # normal path (the ones not done are cancelled): the function stops
    # what it started, but a cancellation at the wait leaves both running.
    async def first_signal_swept(self, timeout: float) -> str:
        a = asyncio.create_task(self._ready.wait())
        b = asyncio.create_task(asyncio.sleep(timeout))
        done, _ = await asyncio.wait([a, b], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        for t in [a, b]:
            if not t.done():
                t.cancel()
        return "ready" if a in done else "timeout"
