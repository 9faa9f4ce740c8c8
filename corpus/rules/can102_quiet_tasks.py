"""Tasks over coroutines of the tree that never suspend.

A task whose coroutine awaits nothing that can suspend (no await at all,
or awaits only of such coroutines) runs to its end at its first step, the
loop's next turn, whatever its starter does meanwhile: a cancellation of
the starter at its next await leaves nothing running. A task over a
coroutine that does suspend, directly or through a helper of the tree, is
a window as any other.
"""

import asyncio


class Scheduler:
    def __init__(self) -> None:
        self.queue: list = []
        self.ready = False

    async def _check_queue(self) -> bool:
        self.ready = bool(self.queue)
        return self.ready

    async def _check_twice(self) -> bool:
        return await self._check_queue() and await self._check_queue()

    async def _poll_backend(self, backend) -> bool:
        return await backend.poll()

    async def _poll_through(self, backend) -> bool:
        return await self._poll_backend(backend)

    # Fine: the check never suspends; it has ended before anything could
    # cancel the loop at its next await.
    async def advance(self, events: asyncio.Queue) -> None:
        check = asyncio.create_task(self._check_queue())
        await events.get()
        await check

    # Fine: the same through a helper that only awaits such checks.
    async def advance_twice(self, events: asyncio.Queue) -> None:
        check = asyncio.create_task(self._check_twice())
        await events.get()
        await check

    # Buggy: the poll suspends on the backend; cancelled at the get, the
    # task is left running with nobody to cancel it.
    async def advance_polling(self, events: asyncio.Queue, backend) -> None:
        poll = asyncio.create_task(self._poll_backend(backend))
        await events.get()  # expect: CAN102
        await poll

    # Buggy: the same through a helper of the tree that suspends.
    async def advance_through(self, events: asyncio.Queue, backend) -> None:
        poll = asyncio.create_task(self._poll_through(backend))
        await events.get()  # expect: CAN102
        await poll
