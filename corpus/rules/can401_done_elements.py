"""Awaiting a task taken out of asyncio.wait's done set.

`done, pending = await asyncio.wait({task}, timeout=t)` then `[finished] =
done` (or `finished = done.pop()`): the task has ended, so `await
finished` returns at once with what it ended with; the CancelledError a
handler around that await catches is the task's own (it was cancelled
just before), never this function's. The twin takes its task out of the
pending set, which has not ended: the await suspends, and a cancellation
of this function lands in the handler and is swallowed.
"""

import asyncio


async def stop_worker(task: asyncio.Task, grace: float) -> None:
    task.cancel()
    done, pending = await asyncio.wait({task}, timeout=grace)
    if pending:
        return
    [finished] = done
    try:
        await finished
    except asyncio.CancelledError:
        pass


async def stop_worker_popped(task: asyncio.Task, grace: float) -> None:
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=grace)
    if not done:
        return
    finished = done.pop()
    try:
        await finished
    except asyncio.CancelledError:
        pass


async def wait_worker(task: asyncio.Task, grace: float) -> None:
    done, pending = await asyncio.wait({task}, timeout=grace)
    if not pending:
        return
    [running] = pending
    try:
        await running
    except asyncio.CancelledError:  # expect: CAN401
        pass
