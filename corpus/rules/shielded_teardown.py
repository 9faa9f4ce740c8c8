"""A task awaited through a shield finishes by itself.

`task = create_task(self.close()); await wait_for(shield(task), t)`: when
the await is cancelled, the shield leaves the close running to its end,
which is what it is there for; the task is no window. So are close tasks
made in a comprehension and waited for with `asyncio.wait`, which leaves
them running. A bare `await shield(task)`, which bounds nothing, detaches
any task on purpose: the task is no window either. A task running
anything else (the job itself) that a shield under a timed wait keeps
alive is abandoned by a cancellation nobody handles.
"""

import asyncio
from typing import Any, Optional


class Iterator:
    def __init__(self) -> None:
        self._closing: Optional["asyncio.Task[None]"] = None

    async def close(self) -> None:
        await asyncio.sleep(0)

    async def run_job(self) -> None:
        await asyncio.sleep(1)

    # Fine: the close goes on under the shield when this await is cancelled.
    async def stop(self, timeout: float) -> None:
        task = asyncio.create_task(self.close())
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=timeout)
        except asyncio.TimeoutError:
            self._closing = task

    # Fine: the same through a variable that is the task or its timed wait.
    async def stop_maybe_timed(self, timeout: Optional[float]) -> None:
        task = asyncio.create_task(self.close())
        waiter: Any = task
        if timeout is not None:
            waiter = asyncio.wait_for(asyncio.shield(task), timeout=timeout)
        try:
            await waiter
        except asyncio.TimeoutError:
            self._closing = task

    # Buggy: the shield keeps the job running and the cancellation skips
    # the only code that would stop it.
    async def run_with_grace(self, grace: float) -> None:
        job = asyncio.create_task(self.run_job())
        try:
            await asyncio.wait_for(asyncio.shield(job), timeout=grace)  # expect: CAN101
        except asyncio.TimeoutError:
            job.cancel()


class TransactionScope:
    def __init__(self, trans: Any, session: Any) -> None:
        self.trans = trans
        self.session = session

    # Fine: the nested coroutine is made only of exits and closes, so the
    # task is the release itself, shielded so that it finishes.
    async def __aexit__(self, typ: Any, value: Any, tb: Any) -> None:
        async def finish() -> None:
            await self.trans.__aexit__(typ, value, tb)
            await self.session.close()

        task = asyncio.create_task(finish())
        await asyncio.shield(task)

    # Fine too: a shield that bounds nothing is there only to keep the task
    # running when this await is cancelled. The flush is detached on
    # purpose and finishes by itself (run_with_grace is the near miss: there
    # the shield serves the timeout, and a cancellation abandons the job).
    async def commit_and_exit(self) -> None:
        async def flush_and_finish() -> None:
            await self.session.flush()
            await self.trans.__aexit__(None, None, None)

        task = asyncio.create_task(flush_and_finish())
        await asyncio.shield(task)


# Fine: one close task per connection, waited for with asyncio.wait, which
# leaves them running when it is cancelled: each goes on to close its
# connection.
async def close_all(conns: list) -> None:
    tasks = [asyncio.create_task(c.close()) for c in conns]
    await asyncio.wait(tasks)


# Buggy twin: the tasks do the connections' work, and the cancelled wait
# leaves them running for nobody.
async def serve_all(conns: list) -> None:
    tasks = [asyncio.create_task(c.serve()) for c in conns]
    await asyncio.wait(tasks)  # expect: CAN102


# Buggy: a bare shield detaches the task, but this task makes a sandbox;
# when the await is cancelled the create finishes and what it hands back
# reaches nobody.
async def open_detached_sandbox(client: Any, spec: Any) -> Any:
    making = asyncio.create_task(client.create_sandbox(spec))
    sandbox = await asyncio.shield(making)  # expect: CAN102
    return sandbox


# Fine: the same detached task, doing a job rather than making something,
# finishes by itself.
async def sync_detached(client: Any, spec: Any) -> None:
    syncing = asyncio.create_task(client.sync_state(spec))
    await asyncio.shield(syncing)
