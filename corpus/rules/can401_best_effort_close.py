"""Best-effort teardown: a try whose every await closes something held.

`try: await self._ctx.__aexit__(None, None, None) except BaseException:
pass` states that nothing the close raises may stop the rest of the
teardown; a context exited from another task raises its own scope's
cancellation there. The twins await work of their own (a task's end, a
notification) in the same try, and the handler may eat the caller's
cancellation.
"""

import asyncio
from typing import Any


class Connector:
    def __init__(self) -> None:
        self._ctx: Any = None
        self._stream: Any = None
        self._reader: Any = None
        self._notify: Any = None

    # Fine: the try only exits the context by hand.
    async def safe_cleanup(self) -> None:
        if self._ctx is not None:
            try:
                await self._ctx.__aexit__(None, None, None)
            except BaseException:
                pass
            self._ctx = None

    # Fine: closes only, one after the other, any failure ignored.
    async def dispose(self) -> None:
        try:
            await self._stream.aclose()
            await self._stream.wait_closed()
        except asyncio.CancelledError:
            pass
        self._stream = None

    # Buggy twin: the try awaits the reader task's end, work the caller
    # waits for; a cancellation of the caller landing there is eaten.
    async def stop_reader(self) -> None:
        try:
            await self._reader
        except BaseException:  # expect: CAN401
            pass
        self._reader = None

    # Buggy twin: a notification is awaited beside the close.
    async def close_and_tell(self) -> None:
        try:
            await self._stream.aclose()
            await self._notify("closed")
        except BaseException:  # expect: CAN401
            pass


class SessionPool:
    def __init__(self) -> None:
        self._contexts: dict[str, Any] = {}
        self._workers: dict[str, Any] = {}

    async def _close_session(self, key: str) -> None:
        ctx = self._contexts.pop(key)
        try:
            await ctx.__aexit__(None, None, None)
        except BaseException:
            pass

    async def _join_worker(self, key: str) -> None:
        await self._workers.pop(key)

    # Fine: the helper it awaits only closes, as the try's own awaits do.
    async def close(self) -> None:
        try:
            for key in list(self._contexts):
                await self._close_session(key)
        except BaseException:
            pass

    # Buggy twin: the helper awaits a worker task's end.
    async def join(self) -> None:
        try:
            for key in list(self._workers):
                await self._join_worker(key)
        except BaseException:  # expect: CAN401
            pass


class WorkerSet:
    """Stopping every member: one member's stop is cut short, the next goes on."""

    def __init__(self) -> None:
        self._workers: list = []

    # Fine: each await in the try stops a member the set holds.
    async def stop_all(self) -> None:
        for worker in self._workers:
            try:
                await asyncio.shield(worker.stop())
            except asyncio.CancelledError:
                pass

    # Buggy: draining is work of the member's own, not its teardown.
    async def drain_all(self) -> None:
        for worker in self._workers:
            try:
                await worker.drain()
            except asyncio.CancelledError:  # expect: CAN401
                pass


class ProviderSet:
    """A handler that names what it caught only to log it keeps nothing of it."""

    def __init__(self, providers: Any, log: Any) -> None:
        self._providers = providers
        self._log = log

    # Fine: each provider's shutdown, bounded, any failure logged and the
    # next one shut down.
    async def shutdown_all(self) -> None:
        for provider in self._providers:
            try:
                await asyncio.wait_for(provider.shutdown(), timeout=5)
            except (Exception, asyncio.CancelledError) as e:
                self._log.exception(f"shutdown of {provider} failed: {e}")

    # Buggy: flushing is the provider's work, not its teardown.
    async def flush_all(self) -> None:
        for provider in self._providers:
            try:
                await asyncio.wait_for(provider.flush(), timeout=5)
            except (Exception, asyncio.CancelledError) as e:  # expect: CAN401
                self._log.exception(f"flush of {provider} failed: {e}")
