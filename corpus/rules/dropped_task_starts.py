"""Tasks started and dropped.

`asyncio.create_task(self._ping())` as a statement keeps no handle: no
code can cancel that task (only the loop's own teardown, as the process
ends). Its function, run only as such tasks, meets no cancellation at its
checkpoints, and a handler in it that catches one catches only the failure
of something it awaited. The twins hand the task to the caller, who may
cancel it, or await under a timeout of their own, whose cancellation the
handler would eat.
"""

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)


class Pinger:
    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn
        self._procs: list[Any] = []

    def kick(self) -> None:
        asyncio.create_task(self._ping())

    # Fine: it runs only as tasks nobody holds.
    async def _ping(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()
        except Exception:
            await proc.aclose()
            raise
        self._procs.append(proc)

    def kick_held(self) -> "asyncio.Task[None]":
        return asyncio.create_task(self._ping_held())

    # Buggy: the caller gets the task and may cancel it.
    async def _ping_held(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()  # expect: CAN101
        except Exception:
            await proc.aclose()
            raise
        self._procs.append(proc)


class Poller:
    def __init__(self, fetch: Any) -> None:
        self._fetch = fetch

    def start(self) -> None:
        asyncio.create_task(self._poll())
        asyncio.create_task(self._poll_timed())

    # Fine: nothing can cancel the task, so the handler sees only a
    # cancellation of the fetch itself (a future someone else cancelled).
    async def _poll(self) -> None:
        while True:
            try:
                await self._fetch()
            except BaseException:
                log.exception("poll failed")
            await asyncio.sleep(1)

    # Buggy: the timeout cancels the fetch, and the handler eats that
    # cancellation: the scope never raises TimeoutError.
    async def _poll_timed(self) -> None:
        while True:
            try:
                async with asyncio.timeout(5):
                    try:
                        await self._fetch()
                    except BaseException:  # expect: CAN401
                        log.exception("poll failed")
            except TimeoutError:
                log.warning("poll timed out")
            await asyncio.sleep(1)


class Bridge:
    """Coroutines handed to a loop another thread runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop, spawn: Any) -> None:
        self._loop = loop
        self._spawn = spawn
        self._pending: Any = None

    def resolve(self) -> None:
        asyncio.run_coroutine_threadsafe(self._resolve(), self._loop)

    # Fine: the concurrent future that could cancel the task is dropped.
    async def _resolve(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()
        except Exception:
            await proc.aclose()
            raise
        await proc.aclose()

    def refresh(self) -> None:
        self._pending = asyncio.run_coroutine_threadsafe(self._refresh(), self._loop)

    def abort(self) -> None:
        self._pending.cancel()

    # Buggy: abort() cancels the future, and with it the task.
    async def _refresh(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()  # expect: CAN101
        except Exception:
            await proc.aclose()
            raise
        await proc.aclose()


# A synchronous facade over a loop of its own: each call waits on the
# concurrent future of the task it starts, and never cancels it.
_capture_loop = asyncio.new_event_loop()


def run_in_capture_loop(coro: Any) -> Any:
    future = asyncio.run_coroutine_threadsafe(coro, _capture_loop)
    return future.result()


def run_in_capture_loop_until(coro: Any, deadline: float) -> Any:
    future = asyncio.run_coroutine_threadsafe(coro, _capture_loop)
    try:
        return future.result(deadline)
    except TimeoutError:
        future.cancel()
        raise


class Capture:
    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn

    def snapshot(self) -> Any:
        return run_in_capture_loop(self._snapshot())

    def probe(self, deadline: float) -> Any:
        return run_in_capture_loop_until(self._probe(), deadline)

    # Fine: it runs only as that facade's task, which nothing cancels.
    async def _snapshot(self) -> Any:
        proc = await self._spawn()
        try:
            return await proc.capture()
        except Exception:
            await proc.aclose()
            raise

    # Buggy: the other facade cancels the future, and with it the task,
    # when its deadline passes.
    async def _probe(self) -> Any:
        proc = await self._spawn()
        try:
            return await proc.capture()  # expect: CAN101
        except Exception:
            await proc.aclose()
            raise
