"""Small helpers about the current task."""

import asyncio


def task_is_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def task_is_named(name: str) -> bool:
    task = asyncio.current_task()
    return task is not None and task.get_name() == name
