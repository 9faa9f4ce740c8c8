"""Pollers that tell their owner's stop apart by an event of the object.

`stop()` sets `self._stopping` (an asyncio.Event) and then cancels the
polling tasks through a helper named for it (`cancel_all(tasks)`). Each
poller is a function defined in `start()` and run as a task of the
object's own; its handler tests `self._stopping.is_set()`: where the event
is set, the cancellation was `stop()`'s request and the task ends; where
it is not, this task was not cancelled by its owner, so what the handler
caught came from the awaited work, and the loop goes on by design. The
same handler in a method that callers await in place swallows their
cancellation.
"""

import asyncio
from typing import Any, Awaitable, Callable


async def cancel_all(tasks: list) -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Upkeep:
    def __init__(self) -> None:
        self._stopping = asyncio.Event()
        self._tasks: list = []

    async def stop(self) -> None:
        self._stopping.set()
        await cancel_all(self._tasks)

    def start(self, jobs: list) -> None:
        async def poll(job: Callable[[], Awaitable[Any]], every: float) -> None:
            while not self._stopping.is_set():
                try:
                    await job()
                except (Exception, asyncio.CancelledError):
                    # Fine: the owner's cancel comes with the event set.
                    if self._stopping.is_set():
                        return
                await asyncio.sleep(every)

        for job, every in jobs:
            self._tasks.append(asyncio.create_task(poll(job, every)))

    # Buggy: awaited in place, the handler drops the caller's cancel
    # whenever the event is not set.
    async def run_once(self, job: Callable[[], Awaitable[Any]]) -> None:
        while not self._stopping.is_set():
            try:
                await job()
            except (Exception, asyncio.CancelledError):  # expect: CAN401
                if self._stopping.is_set():
                    return
            await asyncio.sleep(1)
