"""A method that publishes the task it runs in, so that the object can
cancel it.

`self._run_task = asyncio.current_task()` at the top of `run()`, and
`stop()` cancelling `self._run_task`: the cancellation `run()` catches at
its outermost frame is the object's stop, its own shutdown, as for a task
the module starts itself. The twin never publishes its task: what it
catches may be its caller's cancellation, and it goes on.
"""

import asyncio
from typing import Any, Optional


class Relay:
    def __init__(self, source: Any, sink: Any) -> None:
        self.source = source
        self.sink = sink
        self._run_task: Optional[asyncio.Task] = None

    async def run(self) -> None:
        self._run_task = asyncio.current_task()
        try:
            async for item in self.source:
                await self.sink.put(item)
        except asyncio.CancelledError:
            pass
        finally:
            self._run_task = None
        await self.sink.flush()

    def stop(self) -> None:
        if self._run_task is not None:
            self._run_task.cancel()


class QuietRelay:
    def __init__(self, source: Any, sink: Any) -> None:
        self.source = source
        self.sink = sink

    async def run(self) -> None:
        try:
            async for item in self.source:
                await self.sink.put(item)
        except asyncio.CancelledError:  # expect: CAN401
            pass
        await self.sink.flush()
