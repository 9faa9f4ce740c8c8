"""A task that works on a value an enclosing context manager closes.

`stream = await stack.enter_async_context(res.stream())` inside `async
with stack:`, then `task = asyncio.create_task(stream.data_uri())`: if the
function is cancelled, the stack's exit closes the stream the task reads,
so the task fails and ends with it; it holds nothing of its own. A task
on a value nothing closes at a cancellation keeps running.
"""

import asyncio
import contextlib
from typing import Any


# Fine: each task reads a stream the exit stack entered and closes.
async def upload_images(icon: Any, banner: Any, body: dict) -> dict:
    stack = contextlib.AsyncExitStack()
    tasks = []
    async with stack:
        if icon is not None:
            stream = await stack.enter_async_context(icon.stream())
            task = asyncio.create_task(stream.data_uri())
            tasks.append(task)
        if banner is not None:
            stream = await stack.enter_async_context(banner.stream())
            task = asyncio.create_task(stream.data_uri())
            tasks.append(task)
        body["images"] = await asyncio.gather(*tasks)
    return body


# Buggy: the stream is opened outside any context manager; a cancellation
# at the second open leaves the first task running on it.
async def upload_images_unowned(icon: Any, banner: Any, body: dict) -> dict:
    tasks = []
    stream = await icon.open_stream()
    tasks.append(asyncio.create_task(stream.data_uri()))
    other = await banner.open_stream()  # expect: CAN102
    tasks.append(asyncio.create_task(other.data_uri()))
    body["images"] = await asyncio.gather(*tasks)  # expect: CAN102
    await stream.aclose()
    await other.aclose()
    return body
