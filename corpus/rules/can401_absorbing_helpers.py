"""CAN401 around a helper that absorbs the cancellation itself.

``await self._settle_pending()``, whose only checkpoint sits in a try with
``except asyncio.CancelledError: pass``: the helper's own handler takes
any cancellation first (that handler is the swallow to report), so the
caller's handler around the call never sees one. A helper whose handler
raises again, or that has a checkpoint outside its try, still lets the
caller's cancellation out, and the caller's handler may swallow it.
"""

import asyncio
from typing import Any, Set


class SettlingPool:
    def __init__(self) -> None:
        self._pending: "Set[asyncio.Future[Any]]" = set()

    async def _settle_pending(self) -> None:
        if self._pending:
            try:
                await asyncio.shield(asyncio.gather(*self._pending))
            except asyncio.CancelledError:  # expect: CAN401
                pass

    async def _settle_or_raise(self) -> None:
        try:
            await asyncio.gather(*self._pending)
        except asyncio.CancelledError:
            self._pending.clear()
            raise

    async def _settle_then_pause(self) -> None:
        try:
            await asyncio.gather(*self._pending)
        except asyncio.CancelledError:  # expect: CAN401
            pass
        await asyncio.sleep(0)

    async def drain(self) -> None:
        while self._pending:
            try:
                await self._settle_pending()
            except asyncio.CancelledError:
                continue
            else:
                break
        self._pending.clear()

    async def drain_strict(self) -> None:
        try:
            await self._settle_or_raise()
        except asyncio.CancelledError:  # expect: CAN401
            print("drain cut short")

    async def drain_then_pause(self) -> None:
        try:
            await self._settle_then_pause()
        except asyncio.CancelledError:  # expect: CAN401
            print("drain cut short")


class RescanLoop:
    def __init__(self) -> None:
        self._scan: "asyncio.Task[None] | None" = None

    async def _one_scan(self) -> None:
        await asyncio.sleep(1)

    # The old scan is cancelled by its name, but the await is of the new
    # one: the caller's cancellation comes out of it.
    async def rescan(self) -> None:
        if self._scan is not None and not self._scan.done():
            self._scan.cancel()
        self._scan = asyncio.create_task(self._one_scan())
        await self._scan

    async def periodic(self) -> None:
        while True:
            await asyncio.sleep(30)
            try:
                await self.rescan()
            except asyncio.CancelledError:  # expect: CAN401
                print("scan cancelled")
