"""CAN401 through a method of a parameter's class: what it awaits decides.

``await run.terminate()`` on ``run: JobRun``, whose ``terminate`` is
``task.cancel(); await task``: the cancellation that comes out is the run
task's own, the idiom written out in a helper (not a swallow). A method of
the same class that does other work (``await run.flush()``) may take the
caller's cancellation; so may a stub the subclasses override (``async def
execute(self): raise NotImplementedError``): neither is a teardown.
"""

import asyncio
from typing import Any


class JobRun:
    def __init__(self, task: "asyncio.Task[Any]", sink: Any) -> None:
        self.task = task
        self.sink = sink

    async def terminate(self) -> None:
        task = self.task
        task.cancel()
        await task

    async def flush(self) -> None:
        await self.sink.flush()


class Case:
    async def execute(self) -> None:
        """Override this to define the case."""
        raise NotImplementedError


class JobScheduler:
    def __init__(self, case: Case) -> None:
        self.case = case

    async def stop_run(self, run: JobRun) -> None:
        try:
            await run.terminate()
        except asyncio.CancelledError:
            print("run terminated")

    async def flush_run(self, run: JobRun) -> None:
        try:
            await run.flush()
        except asyncio.CancelledError:  # expect: CAN401
            print("flush cut short")

    async def run_case(self) -> None:
        try:
            await self.case.execute()
        except asyncio.CancelledError:  # expect: CAN401
            pass
