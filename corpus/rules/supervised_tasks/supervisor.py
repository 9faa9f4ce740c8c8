"""A supervisor that starts coroutines as tasks it keeps (no window here)."""

import asyncio
from typing import Any, Awaitable


class TaskSupervisor:
    def __init__(self) -> None:
        self._tasks: set = set()

    def create(self, coroutine: Awaitable[Any], *, name: str = "") -> "asyncio.Task[Any]":
        task = asyncio.create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
