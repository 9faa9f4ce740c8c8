"""CAN301: an entry taken out of a registry keyed by tasks, released after
an await of the task.

Awaiting a task that is already done returns at once: it cannot deliver a
cancellation. The tasks of a set filtered by their own `done()`, or of the
done set `asyncio.wait` returns, are finished, so the teardown between the
take-out and the release has no checkpoint. A task of the whole registry may
still be running, and awaiting it suspends.
"""

import asyncio
import contextlib


class StreamAcker:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.running: dict[asyncio.Task, object] = {}

    # Fine: only finished tasks are awaited before the lease is closed.
    async def reap_finished(self) -> None:
        finished = {t for t in self.running if t.done()}
        for task in finished:
            lease = self.running.pop(task)
            try:
                await task
            except ValueError:
                pass
            lease.close()

    # Fine: the done set of asyncio.wait holds finished tasks only.
    async def reap_waited(self) -> None:
        done, _ = await asyncio.wait(list(self.running), timeout=0)
        for finished_task in done:
            lease = self.running.pop(finished_task)
            with contextlib.suppress(ValueError):
                await finished_task
            lease.close()

    # Buggy: any task of the registry, maybe still running.
    async def reap_all(self) -> None:
        for task in list(self.running):
            lease = self.running.pop(task)
            try:
                await task  # expect: CAN301
            except ValueError:
                pass
            lease.close()
