import asyncio
import contextvars
from typing import Any, Coroutine, Optional

_GROUP: contextvars.ContextVar[Optional[asyncio.TaskGroup]] = contextvars.ContextVar("group", default=None)
_KEPT: set[asyncio.Task] = set()


def create_task(coro: Coroutine[Any, Any, Any]) -> asyncio.Task:
    group = _GROUP.get()
    if group is None:
        task = asyncio.ensure_future(coro)
        _KEPT.add(task)
        task.add_done_callback(_KEPT.discard)
        return task
    return group.create_task(coro)


async def in_group(coro: Coroutine[Any, Any, Any]) -> Any:
    async with asyncio.TaskGroup() as group:
        token = _GROUP.set(group)
        try:
            return await coro
        finally:
            _GROUP.reset(token)
