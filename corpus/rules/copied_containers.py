"""A copy of a container holds the same values.

`pending = set(tasks)` (or `list(...)`, `tuple(...)`, `sorted(...)`) makes
a new container of the same tasks: cancelling what `pending` holds in a
`finally` cancels them, and a window of the tasks is a window of what the
copy holds. (`dict(...)` is left out: its values are not its elements.)
"""

import asyncio
from typing import Any, List


# Fine: the finally cancels every task the copy still holds.
async def first_answer(jobs: List[Any]) -> Any:
    pending: set = set()
    results: List[Any] = []
    try:
        tasks = [asyncio.create_task(job()) for job in jobs]
        index = {task: i for i, task in enumerate(tasks)}
        results = [None] * len(tasks)
        pending = set(tasks)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                results[index[task]] = task.result()
            if any(r is not None for r in results):
                return results
    finally:
        for task in pending:
            task.cancel()
    return results


# Buggy: nothing cancels the tasks when the wait is cancelled.
async def first_answer_leaky(jobs: List[Any]) -> Any:
    tasks = [asyncio.create_task(job()) for job in jobs]
    pending = list(tasks)
    while pending:
        done, rest = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        pending = list(rest)
        for task in done:
            return task.result()
    return None
