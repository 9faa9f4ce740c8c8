"""Awaiting, one by one, the tasks an earlier loop cancelled.

`for name, t in items: t.cancel()`, then a second loop over the same
`items` that awaits each element under `except CancelledError`: every
element was cancelled by the first loop, so the CancelledError caught is
that task's own end, as in `t.cancel(); await t`. A second loop over a
container nobody cancelled the elements of still swallows the caller's
cancellation.
"""

import asyncio


class Registry:
    def __init__(self) -> None:
        self.tasks: dict = {}
        self.other: dict = {}

    # Fine: the first loop cancels every task the second one awaits.
    async def stop_all(self) -> None:
        items = list(self.tasks.items())
        for name, inst in items:
            if not inst.done():
                inst.cancel()
        for name, waited in items:
            try:
                await asyncio.wait_for(waited, timeout=5.0)
            except asyncio.TimeoutError:
                pass
            except asyncio.CancelledError:
                pass
        self.tasks.clear()

    # Buggy: the loop that cancels goes over another container; the
    # awaited tasks were never cancelled, so the handler drops the
    # caller's cancellation.
    async def stop_other(self) -> None:
        items = list(self.tasks.items())
        others = list(self.other.items())
        for name, inst in others:
            inst.cancel()
        for name, waited in items:
            try:
                await waited
            except asyncio.CancelledError:  # expect: CAN401
                pass

    # Buggy: the await comes before the loop that cancels.
    async def drain_then_cancel(self) -> None:
        items = list(self.tasks.values())
        for waited in items:
            try:
                await waited
            except asyncio.CancelledError:  # expect: CAN401
                pass
        for inst in items:
            inst.cancel()
