"""Tasks made by a task group of the tree.

A class of the tree whose `create_task` keeps the task in `self._tasks`
and whose `__aexit__` cancels what it keeps is a task group: inside
`async with TaskContext() as tc:` the tasks `tc.create_task(...)` makes
belong to `tc`, one at a time or several in a comprehension. The same
comprehension over `asyncio.create_task` leaves the losers running.
"""

import asyncio
from typing import Any


class TaskContext:
    def __init__(self) -> None:
        self._tasks: set = set()

    async def __aenter__(self) -> "TaskContext":
        return self

    async def __aexit__(self, *exc: object) -> None:
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def create_task(self, coro: Any) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


async def connect(url: str) -> Any: ...


# Fine: the first connection wins; the group cancels the others on exit.
async def first_connection(urls: list) -> Any:
    async with TaskContext() as tc:
        tasks = [tc.create_task(connect(u)) for u in urls]
        for attempt in asyncio.as_completed(tasks):
            return await attempt
    return None


# Fine: one task of the group across a wait.
async def one_connection(url: str, ready: asyncio.Event) -> Any:
    async with TaskContext() as tc:
        task = tc.create_task(connect(url))
        await ready.wait()
        return await task


# Buggy: plain tasks; returning the first result leaves the rest running.
async def first_connection_plain(urls: list) -> Any:
    tasks = [asyncio.create_task(connect(u)) for u in urls]
    for attempt in asyncio.as_completed(tasks):
        return await attempt  # expect: CAN102
    return None
