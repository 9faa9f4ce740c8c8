"""CAN401: where a caught cancellation goes after the handler.

Each shape comes as a pair: the swallow, and its near twin that keeps the
cancellation (re-raises it later, hands it on, never sees it, or is the
task's own shutdown).
"""

import asyncio
import concurrent.futures
import contextlib
from typing import Any


class Handlers:
    def __init__(self, source: Any, log: Any) -> None:
        self._source = source
        self._log = log
        self._fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._task: asyncio.Task[None] | None = None
        self._pump_task: asyncio.Task[None] | None = None

    # Fine: the first clause takes the cancellation and re-raises it; the
    # catch-all after it never sees one.
    async def ordered(self) -> Any:
        try:
            return await self._source.fetch()
        except asyncio.CancelledError:
            raise
        except BaseException:
            self._log.exception("fetch failed")
            return None

    # Buggy: the catch-all comes first and takes the cancellation too.
    async def misordered(self) -> Any:
        try:
            return await self._source.fetch()
        except BaseException:  # expect: CAN401
            self._log.exception("fetch failed")
            return None
        except asyncio.CancelledError:
            raise

    # Fine: concurrent.futures.CancelledError is not the task's
    # cancellation (a thread pool future's), whatever its name.
    async def pool_result(self, pool_future: Any) -> Any:
        try:
            return await asyncio.wrap_future(pool_future)
        except concurrent.futures.CancelledError:
            return None

    # Fine: the handler keeps only what is not a cancellation.
    async def only_errors(self) -> Any:
        try:
            return await self._source.fetch()
        except BaseException as exc:
            if isinstance(exc, Exception):
                self._log.warning("fetch failed: %r", exc)
                return None
            raise

    # Buggy: the branch taken for a cancellation is the one that returns.
    async def cancel_to_none(self) -> Any:
        try:
            return await self._source.fetch()
        except BaseException as exc:  # expect: CAN401
            if isinstance(exc, asyncio.CancelledError):
                return None
            raise

    # Fine: the handler asks whether this task is being cancelled and only
    # absorbs the cancellation it asked for itself.
    async def absorb_own_cancel(self) -> Any:
        try:
            return await self._source.fetch()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            return None

    # Buggy: suppress() is a handler that completes normally.
    async def suppressed(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
            await self._source.flush()

    # Fine: suppress() of an ordinary error lets cancellation through.
    async def suppressed_errors(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self._source.flush()

    # Fine: the cancellation is handed to the future's awaiters.
    async def forward(self) -> None:
        try:
            self._fut.set_result(await self._source.fetch())
        except asyncio.CancelledError as exc:
            self._fut.set_exception(exc)

    # Fine: the exception, cancellation included, is thrown into the
    # destination channel, whose consumer raises it.
    async def forward_to_channel(self, channel) -> None:
        try:
            async for item in self._source:
                await channel.put(item)
        except BaseException as exc:
            await channel.throw(exc)

    # Buggy: the future gets a result and the cancellation is gone.
    async def forward_result(self) -> None:
        try:
            self._fut.set_result(await self._source.fetch())
        except asyncio.CancelledError:  # expect: CAN401
            self._fut.set_result(None)

    # Fine: every error, the cancellation included, is kept and the first
    # one raised once all closers ran.
    async def close_all(self, closers: list[Any]) -> None:
        errors: list[BaseException] = []
        for closer in closers:
            try:
                await closer.aclose()
            except (Exception, asyncio.CancelledError) as exc:
                errors.append(exc)
        if errors:
            raise errors[0]

    # Buggy: the errors are kept only to be logged.
    async def close_all_logged(self, closers: list[Any]) -> None:
        errors: list[BaseException] = []
        for closer in closers:
            try:
                await closer.aclose()
            except (Exception, asyncio.CancelledError) as exc:  # expect: CAN401
                errors.append(exc)
        if errors:
            self._log.warning("%d closers failed", len(errors))

    # Fine: a second cancellation while the first is being handled; the
    # first is raised when the cleanup is over.
    async def cleanup_twice(self) -> Any:
        try:
            return await self._source.fetch()
        except asyncio.CancelledError:
            try:
                await self._source.reset()
            except asyncio.CancelledError:
                pass
            raise

    # The background tasks this class starts.
    def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        self._pump_task = asyncio.create_task(self._pump())

    def stop(self) -> None:
        if self._pump_task is not None:
            self._pump_task.cancel()

    # Fine: the outermost frame of a task the module starts: its
    # cancellation is its own shutdown, cleanup included.
    async def _run(self) -> None:
        try:
            while True:
                await self._source.next_event()
        except asyncio.CancelledError:
            await self._source.reset()
            return

    # Buggy: the task catches its cancellation and goes round again, so no
    # cancel() can stop it.
    async def _pump(self) -> None:
        while True:
            try:
                await self._source.next_event()
            except asyncio.CancelledError:  # expect: CAN401
                self._log.info("pump interrupted")


# Fine: the main task of asyncio.run; ^C cancels it, and it exits quietly.
async def main(source: Any) -> None:
    try:
        await source.serve_forever()
    except asyncio.CancelledError:
        pass


def cli(source: Any) -> None:
    asyncio.run(main(source))


class Manager:
    """A swallow that is an option of the API: set once in __init__ from a
    constructor argument, re-raised when the option is off."""

    def __init__(self, lock: asyncio.Lock, suppress_cancelled: bool = True) -> None:
        self._lock = lock
        self._suppress = suppress_cancelled
        self._quiet = suppress_cancelled

    # Fine: documented option; off, the cancellation is raised.
    async def acquire(self) -> bool:
        try:
            await self._lock.acquire()
        except asyncio.CancelledError:
            if not self._suppress:
                raise
            return False
        return True

    def hush(self) -> None:
        self._quiet = True

    # Buggy twin: `_quiet` is state (hush() changes it), not an option: the
    # cancellation is dropped whenever someone called hush().
    async def acquire_quietly(self) -> bool:
        try:
            await self._lock.acquire()
        except asyncio.CancelledError:  # expect: CAN401
            if not self._quiet:
                raise
            return False
        return True


class Restarter:
    """A flag the object sets right before it cancels its own child task:
    while it is set, the cancellation caught is the object's own."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport
        self._child: "asyncio.Task[None] | None" = None
        self._restart = False
        self._paused = False

    def restart(self) -> None:
        if self._child is not None and not self._child.done():
            self._restart = True
            self._child.cancel()

    def pause(self) -> None:
        self._paused = True

    # Fine: the loop continues only for the cancel restart() asked for.
    async def run(self) -> None:
        while True:
            self._child = asyncio.create_task(self._transport.run())
            try:
                await self._child
                return
            except asyncio.CancelledError:
                if self._restart:
                    self._restart = False
                    continue
                raise

    # Buggy twin: pause() sets its flag without cancelling anything, so the
    # caller's cancellation is dropped while paused.
    async def run_pausable(self) -> None:
        while True:
            try:
                await self._transport.run()
                return
            except asyncio.CancelledError:  # expect: CAN401
                if self._paused:
                    continue
                raise


class Replayer:
    """A flag computed from the exception's class: true only for an
    ordinary error, so the branch it guards never sees a cancellation."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    # Fine: `retryable` needs isinstance(exc, Exception), and so does
    # `again`, built from it; the loop goes round only for an error.
    async def send(self, frame: bytes) -> None:
        retry = True
        while True:
            try:
                await self._conn.send(frame)
                return
            except BaseException as exc:
                retryable = isinstance(exc, Exception) and self._conn.closed
                again = retryable and retry
                if again:
                    retry = False
                    continue
                raise

    # Buggy twin: the flag does not depend on the exception's class, so a
    # cancellation that arrives while the connection is closed goes round.
    async def send_loose(self, frame: bytes) -> None:
        retry = True
        while True:
            try:
                await self._conn.send(frame)
                return
            except BaseException:  # expect: CAN401
                again = self._conn.closed and retry
                if again:
                    retry = False
                    continue
                raise
