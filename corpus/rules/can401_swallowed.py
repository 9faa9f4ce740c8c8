"""CAN401: a handler that catches cancellation and completes without
re-raising it.

The task was asked to stop; swallowing the CancelledError makes it carry on
(or return a value) as if nothing happened. Task groups, timeouts and
``Task.cancel()`` callers then wait for a task that never ends, or see a
result where they expected a cancellation.
"""

import asyncio
import time
from typing import Any


class Poller:
    def __init__(self, source: Any, log: Any) -> None:
        self._source = source
        self._log = log
        self._ws: Any = None
        self._reader: asyncio.Task | None = None
        self._last_beat = 0.0
        self._closing = False
        self._cancels = 0

    # Buggy: the cancellation becomes a `None` result.
    async def poll_once(self) -> Any:
        try:
            return await self._source.fetch()
        except asyncio.CancelledError:  # expect: CAN401
            return None

    # Buggy: BaseException is logged and falls through.
    async def heartbeat(self) -> None:
        try:
            await self._ws.ping()
        except BaseException:  # expect: CAN401
            self._log.warning("heartbeat failed")
        self._last_beat = time.monotonic()

    # Buggy: `break` turns the cancellation into a normal loop exit.
    async def run_forever(self) -> None:
        while True:
            try:
                await self._source.next_event()
            except asyncio.CancelledError:  # expect: CAN401
                break

    # Buggy: a bare `except: pass` around an await.
    async def best_effort_flush(self) -> None:
        try:
            await self._source.flush()
        except:  # noqa: E722  # expect: CAN401
            pass

    # Buggy: one branch re-raises, the other returns.
    async def poll_unless_closing(self) -> Any:
        try:
            return await self._source.fetch()
        except (asyncio.CancelledError, ConnectionError):  # expect: CAN401
            if self._closing:
                raise
            return None

    # Fine: re-raised after bookkeeping.
    async def poll_counted(self) -> Any:
        try:
            return await self._source.fetch()
        except asyncio.CancelledError:
            self._cancels += 1
            raise

    # Fine: every branch raises.
    async def poll_classified(self) -> Any:
        try:
            return await self._source.fetch()
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                self._cancels += 1
                raise
            self._log.warning("fetch failed: %r", exc)
            raise exc

    # Fine: the exception is kept and raised later in the function.
    async def poll_then_report(self) -> Any:
        err: BaseException | None = None
        result = None
        try:
            result = await self._source.fetch()
        except asyncio.CancelledError as e:
            err = e
        self._last_beat = time.monotonic()
        if err is not None:
            raise err
        return result

    # Fine: `except Exception` does not catch cancellation at all.
    async def poll_quietly(self) -> Any:
        try:
            return await self._source.fetch()
        except Exception:
            pass
        return None

    # Fine: the idiom for stopping our own child task; the CancelledError
    # awaited here is the task's own, not ours.
    async def stop_reader(self) -> None:
        if self._reader is None:
            return
        self._reader.cancel()
        try:
            await self._reader
        except asyncio.CancelledError:
            pass
        self._reader = None


class SettleLoops:
    def __init__(self, client: Any) -> None:
        self._client = client

    # Fine: the settle loop records the cancellation and raises it once the
    # cleanup task is done ("raising it later is not swallowing"); a
    # cancellation at the shielded await is caught and the task re-awaited,
    # so the task is never abandoned.
    async def close_settled(self) -> None:
        cleanup = asyncio.ensure_future(self._client.aclose())
        cancelled = False
        while not cleanup.done():
            try:
                await asyncio.shield(cleanup)
            except asyncio.CancelledError:
                cancelled = True
        if cancelled:
            raise asyncio.CancelledError

    # Buggy: the flag is kept but never raised.
    async def close_forgetful(self) -> None:
        cleanup = asyncio.ensure_future(self._client.aclose())
        cancelled = False
        while not cleanup.done():
            try:
                await asyncio.shield(cleanup)
            except asyncio.CancelledError:  # expect: CAN401
                cancelled = True
        self._client = None
