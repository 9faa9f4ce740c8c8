"""Awaiting a task that a test has just found done.

`if task.done(): await task` returns the finished task's result (or raises
its exception) at once: the await does not suspend, so no cancellation of
the awaiting task can be delivered there, and a handler around it catches
only the finished task's own outcome. The twins below test something else,
or await after a loop, and keep a real suspension.
"""

import asyncio
import contextlib
from typing import Any


# Fine: a reaper that collects the results of the tasks already finished;
# the CancelledError it suppresses is the finished task's own result (it
# was cancelled), never the reaper's cancellation.
async def reap_finished(groups: "dict[str, list[asyncio.Task[Any]]]") -> int:
    reaped = 0
    for tasks in list(groups.values()):
        for task in tasks:
            if task.done() and not task.cancelled():
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                reaped += 1
    return reaped


# Buggy twin: the test is negated, so the await waits for a running task,
# and the reaper's own cancellation is swallowed there.
async def reap_running(groups: "dict[str, list[asyncio.Task[Any]]]") -> int:
    reaped = 0
    for tasks in list(groups.values()):
        for task in tasks:
            if not task.done():
                with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
                    await task
                reaped += 1
    return reaped


# Buggy twin: the name is bound again to a new task between the test and
# the await.
async def restart_and_wait(task: "asyncio.Task[Any]", factory: Any) -> None:
    if task.done():
        task = asyncio.ensure_future(factory())
        try:
            await task
        except BaseException:  # expect: CAN401
            pass


# Buggy twin: an `or` makes the test say nothing about this task.
async def wait_either(task: "asyncio.Task[Any]", forced: bool) -> None:
    if forced or task.done():
        with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
            await task
