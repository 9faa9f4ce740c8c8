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


class Mailbox(asyncio.Queue):
    """A queue of the tree named after nothing: its get awaits the base's."""

    async def take(self):
        return await super().get()


class Queue(asyncio.Queue):
    """A queue of the tree that shares its name with asyncio's."""

    async def get(self):
        item = await super().get()
        return item


class Reader:
    def __init__(self, inbox: Queue) -> None:
        self._inbox = inbox
        self.seen = 0

    async def receive(self):
        return await self._inbox.get()

    async def count(self) -> int:
        self.seen += 1
        return self.seen


# Fine: the reader's count never suspends, called on a parameter of a
# class of the tree.
async def tally(reader: Reader, events: asyncio.Queue) -> None:
    counting = asyncio.create_task(reader.count())
    await events.get()
    await counting


# Buggy: receive waits on the queue, whose get awaits asyncio's own
# (`super().get()` names asyncio.Queue, not the tree's Queue.get itself).
async def pump(reader: Reader, events: asyncio.Queue) -> None:
    receiving = asyncio.create_task(reader.receive())
    await events.get()  # expect: CAN102
    await receiving


# Buggy: the same through a base method of another name.
async def drain(box: Mailbox, events: asyncio.Queue) -> None:
    taking = asyncio.create_task(box.take())
    await events.get()  # expect: CAN102
    await taking
