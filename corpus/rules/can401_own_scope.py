"""A handler that asks its own cancel scope whether it was cancelled.

`with deadline(t) as scope:` inside the try, then in `except
CancelledError:` a test of `scope.cancelled()` (or `cancelled_caught`,
`cancel_called`, `timedout()`, `expired()`): the handler completes only on
the branch where the scope it entered cancelled the work itself, and
re-raises on the others, so it swallows only its own scope's cancellation.
A scope the try did not enter says nothing about the caught one.
"""

import asyncio
from typing import Any


def deadline(seconds: float) -> Any: ...


class Call:
    def __init__(self, future: Any) -> None:
        self.future = future
        self.scope: Any = None

    # Fine: only the deadline's own cancellation is turned into a result.
    async def run(self, coro: Any) -> None:
        scope = None
        try:
            with deadline(5.0) as scope:
                result = await coro
        except asyncio.CancelledError:
            if scope.timedout():
                self.future.cancel()
            elif scope.cancelled():
                self.future.cancel()
            else:
                raise
        else:
            self.future.set_result(result)

    # Swallows: the scope asked about is not one the try entered; a
    # cancellation of the caller's lands here and ends quietly.
    async def run_unscoped(self, coro: Any) -> None:
        try:
            result = await coro
        except asyncio.CancelledError:  # expect: CAN401
            if self.scope.cancelled():
                self.future.cancel()
            else:
                self.future.cancel()
        else:
            self.future.set_result(result)
