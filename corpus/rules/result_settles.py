"""A future's result returns only once it is done: asyncio raises
InvalidStateError before, a concurrent future waits. On the path on from
`t.result()` (or `t.exception()`) returning, the task has finished, so a
loop that reads each round's result before going round again holds no
live task at its top. Read only under a test (`t.done() and
t.result()`), the task may still run there.
"""

import asyncio
from typing import Any, AsyncIterator


class ResultPump:
    def __init__(self, source: Any, stop: asyncio.Event) -> None:
        self._source = source
        self._stop = stop

    # Fine: the round's step is done once its result is read; the next
    # round's flush finds nothing running. (The race itself is a window:
    # a cancellation there leaves the step running.)
    async def drain(self) -> AsyncIterator[Any]:
        while True:
            await self._source.flush()
            step = asyncio.create_task(self._source.next())
            stopped = asyncio.create_task(self._stop.wait())
            try:
                done, _ = await asyncio.wait({step, stopped}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
                if stopped in done:
                    step.cancel()
                    return
                yield step.result()
            finally:
                if not stopped.done():
                    stopped.cancel()

    # Buggy twin: the step gets one second; read only when it is done, it
    # may still run at the next round's flush, unowned (and the wait
    # itself cancels it only on an error).
    async def drain_lossy(self) -> AsyncIterator[Any]:
        while True:
            await self._source.flush()  # expect: CAN102
            step = asyncio.create_task(self._source.next())
            try:
                await asyncio.wait({step}, timeout=1)  # expect: CAN101
                if step.done() and step.exception() is None:
                    yield step.result()
            except Exception:
                step.cancel()
                raise
