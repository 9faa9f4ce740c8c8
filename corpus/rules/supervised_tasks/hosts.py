"""Tasks whose body, a closure of the method that starts them, awaits a
coroutine of another module through an attribute of self."""

import asyncio

from .feeders import Feeder, InlineFeeder


class Host:
    def __init__(self, feeder: Feeder) -> None:
        self.feeder = feeder

    async def start(self) -> None:
        async def guarded() -> None:
            try:
                await self.feeder.run()
            except Exception:
                return

        self.task = asyncio.create_task(guarded())

    async def stop(self) -> None:
        self.task.cancel()


class InlineHost:
    def __init__(self, feeder: InlineFeeder) -> None:
        self.feeder = feeder

    async def serve(self) -> None:
        await self.feeder.run()
