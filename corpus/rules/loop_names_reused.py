"""One loop name over several containers.

`for task in pending:` and later `for task in tasks:` bind the same name
to elements of different containers. A release in a loop is a release of
the container that loop reads, not of the last container the function
reads under that name.
"""

import asyncio


# Fine: the handler cancels every task of `tasks`; the later loop over
# `done` reuses the name and releases nothing.
async def first_of(queue: asyncio.Queue, lock: asyncio.Lock) -> object:
    tasks = [asyncio.ensure_future(c) for c in (lock.acquire(), queue.get())]
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        raise
    for task in done:
        return task.result()
    return None


# Buggy: the handler cancels only the helpers; the workers' tasks, whose
# name a later loop reuses, are left running.
async def run_workers(jobs: list, helpers: list) -> list:
    tasks = [asyncio.create_task(job()) for job in jobs]
    try:
        await asyncio.sleep(1)  # expect: CAN102
    except asyncio.CancelledError:
        for task in helpers:
            task.cancel()
        raise
    results = []
    for task in tasks:
        results.append(await task)
    return results
