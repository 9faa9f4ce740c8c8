"""A value shared with a function defined inside this one, which releases
it (`finally: r_file.close()`), is owned by the task that runs that function
once the task is started (`tg.start_soon(drain)`, `create_task(pump())`).
And a concurrent future awaited through `asyncio.wrap_future` is cancelled
with the await: the cancellation reaches the coroutine on the other loop.
A future (or task) whose coroutine is a teardown (`model.close()`) is left
to run to its end by a cancellation that does not reach it.
"""

import asyncio
import os
from typing import Any

import anyio


async def serve_logs(client: Any, log: Any) -> None:
    r_fd, w_fd = os.pipe()
    r_file = os.fdopen(r_fd, "r")
    w_file = os.fdopen(w_fd, "w")

    async def drain() -> None:
        try:
            async for line in anyio.wrap_file(r_file):
                log.info(line)
        finally:
            r_file.close()

    # Fine: from start_soon on, drain owns the read end.
    async with anyio.create_task_group() as tg:
        tg.start_soon(drain)
        try:
            await client.run(stderr=w_file)
        finally:
            w_file.close()


async def serve_logs_unowned(client: Any, log: Any) -> None:
    r_fd, w_fd = os.pipe()
    r_file = os.fdopen(r_fd, "r")
    w_file = os.fdopen(w_fd, "w")

    async def drain() -> None:
        async for line in anyio.wrap_file(r_file):
            log.info(line)

    # Buggy twin: drain never closes the read end, so nothing does.
    async with anyio.create_task_group() as tg:  # expect: CAN102
        tg.start_soon(drain)
        try:
            await client.run(stderr=w_file)
        finally:
            w_file.close()


async def watch_remote(model: Any, loop: asyncio.AbstractEventLoop, log: Any) -> None:
    # Fine: cancelling the wrap_future await cancels the future, and with it
    # the watch running on the other loop.
    future = asyncio.run_coroutine_threadsafe(model.watch(), loop)
    await asyncio.wrap_future(future)
    await log.flush()


async def watch_remote_detached(model: Any, loop: asyncio.AbstractEventLoop, log: Any) -> None:
    # Buggy twin: the flush comes before the future is awaited; cancelled
    # there, the watch goes on on the other loop with nothing to stop it.
    future = asyncio.run_coroutine_threadsafe(model.watch(), loop)
    await log.flush()  # expect: CAN102
    await asyncio.wrap_future(future)


async def close_remote_detached(model: Any, loop: asyncio.AbstractEventLoop, log: Any) -> None:
    # Fine: what runs on the other loop is the close itself; cancelled at the
    # flush, this coroutine leaves it to run to its end, which is what it
    # was scheduled for.
    future = asyncio.run_coroutine_threadsafe(model.close(), loop)
    await log.flush()
    await asyncio.wrap_future(future)
