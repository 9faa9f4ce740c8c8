import asyncio
from typing import Any

from . import api, compat, facade


async def pump(q: asyncio.Queue) -> None:
    while True:
        await q.get()


# Fine: api.create_task is groups.create_task, whose task is owned.
async def run_through_alias(q: asyncio.Queue, ready: asyncio.Event) -> None:
    task = api.create_task(pump(q))
    await ready.wait()
    task.cancel()


# Fine: facade.create_task is the same function, imported.
async def run_through_import(q: asyncio.Queue, ready: asyncio.Event) -> None:
    task = facade.create_task(pump(q))
    await ready.wait()
    task.cancel()


# compat.create_task is asyncio.ensure_future: the task is the caller's.
async def run_through_library(q: asyncio.Queue, ready: asyncio.Event) -> None:
    task = compat.create_task(pump(q))
    await ready.wait()  # expect: CAN102
    task.cancel()


# The same task started directly.
async def run_direct(q: asyncio.Queue, ready: asyncio.Event) -> Any:
    task = asyncio.ensure_future(pump(q))
    await ready.wait()  # expect: CAN102
    task.cancel()
