"""Branches a path cannot take, and values other code changes.

A handler whose every branch raises does not complete, even where the path
knows which branch it takes (`worker_error` is still None here, so the
`else` cannot run: it is not a way out of the handler either). A name a
nested function rebinds through `nonlocal` is not known to keep the value
the function gave it. Tasks started with the coroutine passed by keyword
(`asyncio.create_task(name=..., coro=...)`) are tasks of their own.
"""

import asyncio


async def watch(stream):
    worker_error = None
    try:
        async for event in stream:
            await event.handle()
    except asyncio.CancelledError:
        if worker_error is None:
            raise
        else:
            raise RuntimeError("a worker failed") from worker_error


async def watch_with_workers(stream, spawn):
    this_task = asyncio.current_task()
    worker_error = None

    def on_worker_error(exc):
        nonlocal worker_error
        worker_error = exc
        this_task.cancel()

    try:
        async for event in stream:
            spawn(event, on_worker_error)
            await asyncio.sleep(0)
    except asyncio.CancelledError:  # expect: CAN401
        # the worker's failure, turned into a quiet stop: a cancellation of
        # the watcher from outside, after a worker failed, is dropped too
        if worker_error is None:
            raise
    return worker_error


async def stop_flag_checker(stop_flag):
    try:
        await stop_flag.wait()
    except asyncio.CancelledError:
        pass


def start_root_tasks(stop_flag, tasks):
    # Fine: the checker is a root task of its own, stopped by its owner.
    tasks.append(asyncio.create_task(name="stop-flag checker", coro=stop_flag_checker(stop_flag)))
