"""A `while not task.done():` loop left by its test leaves the task done.

The loop runs until its test fails, so on that way out the task has
ended: the next pass of an outer loop holds nothing of it. The wait inside
is still a window (a cancellation there leaves the shielded task running),
and a loop left by a `break` says nothing of the task.
"""

import asyncio
from typing import Any, Awaitable, Callable


async def _work(step: int) -> None:
    await asyncio.sleep(step)


# Buggy only at the shielded wait: the loop ends with the task done, so the
# next round's report starts with nothing running.
async def rounds(report: Callable[[int], Awaitable[Any]]) -> None:
    for step in range(3):
        await report(step)
        task = asyncio.create_task(_work(step))
        while not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=1)  # expect: CAN102
            except asyncio.TimeoutError:
                pass


# Buggy twin: a timeout breaks out with the task still running, into the
# next round's report.
async def rounds_or_give_up(report: Callable[[int], Awaitable[Any]]) -> None:
    for step in range(3):
        await report(step)  # expect: CAN102
        task = asyncio.create_task(_work(step))
        while not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=1)
            except asyncio.TimeoutError:
                break
