"""Loop elements typed by their container's annotation.

`apps: list[App]` makes `app` in `for app in apps` an App, so
`await app.start()` resolves to App.start, which hands back the task the
app keeps (`return self._wait_task`): borrowed, nothing of this function's.
The twin's elements are Jobs, whose start makes a task it does not keep.
"""

import asyncio
from typing import Any, Optional


class App:
    def __init__(self, ready: asyncio.Event) -> None:
        self._ready = ready
        self._wait_task: Optional[asyncio.Task] = None

    async def _wait_ready(self) -> None:
        await asyncio.wait_for(self._ready.wait(), 30)

    async def start(self) -> asyncio.Task:
        if self._wait_task is None or self._wait_task.done():
            self._wait_task = asyncio.create_task(self._wait_ready())
        await asyncio.sleep(0)
        return self._wait_task


class Job:
    async def _run(self) -> None:
        await asyncio.sleep(60)

    async def start(self) -> asyncio.Task:
        await asyncio.sleep(0)
        return asyncio.create_task(self._run())


class Manager:
    def __init__(self, installed: list[Any]) -> None:
        self.installed = installed

    # Fine: each start hands back a task its app keeps.
    async def boot(self) -> None:
        apps: list[App] = [a for a in self.installed if a]
        waits: list[Any] = [asyncio.sleep(1)]
        for app in apps:
            try:
                if started := await app.start():
                    waits.append(started)
            except OSError:
                self.report(app)
        await asyncio.gather(*waits, return_exceptions=True)

    # Buggy twin: the tasks Job.start makes are this function's alone.
    async def run_jobs(self, jobs: list[Job]) -> None:
        waits: list[Any] = [asyncio.sleep(1)]
        for job in jobs:
            try:
                if started := await job.start():  # expect: CAN101
                    waits.append(started)
            except OSError:
                self.report(job)
        await asyncio.gather(*waits, return_exceptions=True)

    def report(self, what: Any) -> None:
        print("failed", what)
