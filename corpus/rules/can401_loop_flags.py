"""CAN401: a consumer loop whose own test is its owner's stop flag.

`while not self.should_stop:` around `try: await self.handle(await
self.queue.get()) except CancelledError: log`: the only code that cancels
the consumer's task is `stop()`, which sets `should_stop` first, so the
loop test that follows the handler ends the task; where the flag is not
set this task was not cancelled, and what the handler caught came out of
the work it awaited. So for `while self.running:` of a flag `stop()`
clears before it cancels. A loop whose flag the canceller sets only after
its cancel (or never) goes round again with the cancellation lost.
"""

import asyncio
from typing import Any


class MailboxConsumer:
    def __init__(self, queue: Any, handle: Any) -> None:
        self.queue = queue
        self.handle = handle
        self.should_stop = False
        self.task = None

    # Fine: stop() sets the flag and then cancels; the loop test ends it.
    async def consume(self) -> None:
        while not self.should_stop:
            try:
                await self.handle(await self.queue.get())
            except asyncio.CancelledError:
                print("consumer cancelled")
            except Exception as exc:
                print("handler failed", exc)

    def start(self) -> None:
        self.task = asyncio.create_task(self.consume())

    async def stop(self) -> None:
        self.should_stop = True
        if self.task:
            self.task.cancel()


class LateFlagConsumer:
    def __init__(self, queue: Any, handle: Any) -> None:
        self.queue = queue
        self.handle = handle
        self.done = False
        self.task = None

    async def consume(self) -> None:
        while not self.done:
            try:
                await self.handle(await self.queue.get())
            except asyncio.CancelledError:  # expect: CAN401
                print("consumer cancelled")

    def start(self) -> None:
        self.task = asyncio.create_task(self.consume())

    # The flag comes after the cancel and an await: a cancellation that
    # lands first is swallowed and the loop goes on.
    async def stop(self) -> None:
        if self.task:
            self.task.cancel()
        await self.queue.join()
        self.done = True


class FeedPoller:
    def __init__(self, feed: Any, sink: Any) -> None:
        self.feed = feed
        self.sink = sink
        self.running = True
        self._task = None

    # Fine: stop() clears `running` and then cancels; the loop test ends it.
    async def poll(self) -> None:
        while self.running:
            try:
                await self.sink.put(await self.feed.next())
            except asyncio.CancelledError:
                print("poller cancelled")

    def start(self) -> None:
        self._task = asyncio.create_task(self.poll())

    def stop(self) -> None:
        self.running = False
        if self._task is not None:
            self._task.cancel()


class LeakyFeedPoller:
    def __init__(self, feed: Any, sink: Any) -> None:
        self.feed = feed
        self.sink = sink
        self.running = True
        self._task = None

    # Buggy twin: stop() cancels without clearing the flag.
    async def poll(self) -> None:
        while self.running:
            try:
                await self.sink.put(await self.feed.next())
            except asyncio.CancelledError:  # expect: CAN401
                print("poller cancelled")

    def start(self) -> None:
        self._task = asyncio.create_task(self.poll())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
