"""Jobs an APScheduler scheduler runs.

`self.scheduler.add_job(self.push_digest, "interval", seconds=30)` hands the
coroutine function to the scheduler, whose asyncio executor runs each run of
it as a task of its own: a handler at the top of the job is the end of that
task (the scheduler's shutdown cancels it). The same body awaited by the
caller swallows the caller's cancellation.
"""

import asyncio

from apscheduler.schedulers.asyncio import AsyncIOScheduler


class ReportPusher:
    def __init__(self, sink) -> None:
        self.sink = sink
        self.scheduler = AsyncIOScheduler()

    def start(self) -> None:
        self.scheduler.add_job(self.push_digest, "interval", seconds=30)
        self.scheduler.start()

    async def push_digest(self) -> None:
        try:
            await self.sink.send(await self.sink.collect())
        except:  # noqa: E722
            self.sink.log("digest push stopped")

    # Buggy: awaited in the caller's own task.
    async def push_now(self) -> None:
        await self._push_inline()

    async def _push_inline(self) -> None:
        try:
            await self.sink.send(await self.sink.collect())
        except:  # noqa: E722  # expect: CAN401
            self.sink.log("digest push stopped")
