"""A project's own spawner: it keeps a reference to each task it starts
(the catalog's task-entry `*background_task*` names it by its module)."""

import asyncio
from typing import Any, Awaitable

running: set = set()


def create(awaitable: Awaitable[Any], *, name: str = "task") -> asyncio.Task:
    task = asyncio.ensure_future(awaitable)
    task.set_name(name)
    running.add(task)
    task.add_done_callback(running.discard)
    return task
