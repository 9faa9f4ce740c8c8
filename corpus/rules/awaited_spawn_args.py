"""A spawner handed an awaited result gets what the coroutine returned.

`loop.create_task(await self._poll_loop())` runs the loop inline, to its
end, and hands its result to the spawner. When the only function of that
name in the module is an async def that never returns a value, the result
is None: `create_task(None)` raises, and no task exists to leak. A
coroutine that may return something (a coroutine object, a future) is
still a task's maker.
"""

import asyncio
from typing import Any


class JobPoller:
    def __init__(self, fetch: Any) -> None:
        self.fetch = fetch
        self.running = True
        self.closing = asyncio.Event()

    async def _poll_loop(self) -> None:
        while self.running:
            await self.fetch()

    async def _next_job(self) -> Any:
        job = await self.fetch()
        return job

    # Fine: the loop runs inline; create_task(None) makes nothing.
    async def listen(self) -> None:
        poller = asyncio.get_running_loop().create_task(await self._poll_loop())
        await self.closing.wait()
        poller.cancel()

    # Buggy: what the awaited coroutine returns may be a coroutine, and the
    # task made from it is dropped if the wait is cancelled.
    async def listen_jobs(self) -> None:
        runner = asyncio.get_running_loop().create_task(await self._next_job())
        await self.closing.wait()  # expect: CAN102
        runner.cancel()
