"""A handler that asks whether the future it shielded was cancelled, and
raises otherwise, swallows only that future's cancellation; the future may
be a concurrent one, seen through `asyncio.wrap_future` (each one's
cancellation is the other's). A handler that returns whatever the test
says swallows the caller's too.
"""

import asyncio
from concurrent.futures import Future
from typing import Any, Optional


class PortalDrain:
    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    # Fine: only the prompt's own cancellation ends the wait quietly.
    async def drain(self, future: "Future[Any]") -> Optional[Any]:
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), timeout=self.timeout)
        except asyncio.CancelledError:
            if future.cancelled():
                return None
            raise

    # Buggy twin: the caller's cancellation is dropped as well.
    async def drain_any(self, future: "Future[Any]") -> Optional[Any]:
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), timeout=self.timeout)
        except asyncio.CancelledError:  # expect: CAN401
            return None
