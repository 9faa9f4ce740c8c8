"""A task cancelled through the attribute that a local also holds.

`task = self._pump` then `self._pump.cancel()`: the local names the task
just cancelled, so `try: await task except CancelledError: pass` absorbs
that task's own cancellation (the `t.cancel(); await t` idiom, written
through the attribute). When the attribute (or the local) is bound again
between the copy and the cancel, the local holds another task, and the
handler also swallows a cancellation of the caller.
"""

import asyncio
from typing import Any


class Relay:
    def __init__(self) -> None:
        self._pump: Any = None

    # Fine: the local holds the task cancelled through the attribute.
    async def stop(self) -> None:
        pump = self._pump
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        if pump is not None:
            try:
                await pump
            except asyncio.CancelledError:
                pass

    # Buggy twin: the attribute is bound to a new task before the cancel,
    # so the local holds the old one, which nothing cancelled.
    async def restart(self, make: Any) -> None:
        old = self._pump
        self._pump = asyncio.create_task(make())
        self._pump.cancel()
        if old is not None:
            try:
                await old
            except asyncio.CancelledError:  # expect: CAN401
                pass
