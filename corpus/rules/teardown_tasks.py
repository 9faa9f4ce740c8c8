"""A task or future whose coroutine is a teardown goes on to its end.

`asyncio.run_coroutine_threadsafe(self._shutdown_all(), loop)` schedules a
shutdown on another loop; `create_task(conn.aclose())` a close. A
cancellation at a checkpoint that does not pass into that task leaves it
running, and running it to its end is what it was made for: the only
"cleanup" a handler could give it (`fut.cancel()` on a timeout) would cut
the teardown short. A coroutine named like a teardown but defined here
with no release in it (it waits for a signal), or with a `while True:`
loop (a periodic sweeper), is an ordinary task.
"""

import asyncio
from typing import Any

import anyio


class Manager:
    def __init__(self, loop: asyncio.AbstractEventLoop, conns: list) -> None:
        self._loop = loop
        self._conns = conns
        self._stopped = asyncio.Event()

    async def _shutdown_all(self) -> None:
        for conn in self._conns:
            await conn.disconnect()

    async def _cleanup_expired(self) -> None:
        while True:
            await asyncio.sleep(60)
            self._conns = [c for c in self._conns if c.alive]

    async def _cancel_on_signal(self, signals: Any) -> None:
        await signals.wait_for("cancel")

    # Fine: the shutdown runs on the owner loop; a cancellation of this
    # wait (it sits in a worker thread) leaves it to finish, and the
    # timeout's cancel is no cleanup this function owes it.
    async def close(self) -> None:
        fut = asyncio.run_coroutine_threadsafe(self._shutdown_all(), self._loop)
        try:
            with anyio.fail_after(5.0):
                await anyio.to_thread.run_sync(fut.result)
        except TimeoutError:
            fut.cancel()

    # Buggy twin: a sweeper that loops forever, started before an await with
    # nothing to stop it if that await is cancelled.
    async def start(self, registry: Any) -> None:
        sweeper = asyncio.create_task(self._cleanup_expired())
        await registry.announce(self)  # expect: CAN102
        self._sweeper = sweeper

    # Buggy twin: named like a cancel, but it waits for a signal: an
    # ordinary task, unowned across the await.
    async def watch(self, signals: Any, registry: Any) -> None:
        waiter = asyncio.create_task(self._cancel_on_signal(signals))
        await registry.announce(self)  # expect: CAN102
        self._waiter = waiter
