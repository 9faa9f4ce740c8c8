"""A handler that ends its loop through the local the loop tests: `while
keep_going:` ... `except CancelledError: keep_going = False`, the try the
last statement of the pass, leaves the loop as a `break` would."""

import asyncio


class Ticker:
    def __init__(self, sink):
        self.sink = sink
        self.task = None

    # Fine: the task's own coroutine; the handler clears the flag its loop
    # tests and the task ends, which is how stop() ends it.
    async def _tick(self, period):
        keep_going = True
        while keep_going:
            try:
                self.sink.write("tick")
                await asyncio.sleep(period)
            except asyncio.CancelledError:
                keep_going = False

    # Fine: the same with a `while not done:` loop.
    async def _drain(self, queue):
        done = False
        while not done:
            try:
                item = await queue.get()
                self.sink.write(item)
            except asyncio.CancelledError:
                done = True

    def start(self, queue):
        self.task = asyncio.create_task(self._tick(0.5))
        self.drain_task = asyncio.create_task(self._drain(queue))

    async def stop(self):
        self.task.cancel()
        await self.task
        self.drain_task.cancel()
        await self.drain_task

    # Buggy: after the handler the pass goes on to an await before the
    # loop tests its flag again: the cancelled task keeps working.
    async def _tick_and_flush(self, period):
        keep_going = True
        while keep_going:
            try:
                await asyncio.sleep(period)
            except asyncio.CancelledError:  # expect: CAN401
                keep_going = False
            await self.sink.flush()

    def start_flushing(self):
        self.flush_task = asyncio.create_task(self._tick_and_flush(1.0))

    async def stop_flushing(self):
        self.flush_task.cancel()
        await self.flush_task

    # Buggy: awaited in place by its callers, not a task of its own: the
    # caller's cancel or timeout ends in a normal return.
    async def poll_until_cancelled(self, period):
        keep_going = True
        while keep_going:
            try:
                await asyncio.sleep(period)
            except asyncio.CancelledError:  # expect: CAN401
                keep_going = False


async def watch(ticker):
    await asyncio.wait_for(ticker.poll_until_cancelled(0.1), 5)
