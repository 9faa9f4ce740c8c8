"""A handler that cancels its own task again passes the cancellation on.

`asyncio.current_task().cancel()` in the handler re-arms the cancellation
it caught: asyncio raises it at the task's next await, here the next step
of the stream the loop drives, whose own cleanup then runs. Cancelling some
other task, or only looking at the current one, drops it.
"""

import asyncio


async def relay(stream, sink):
    async for event in stream:
        try:
            await sink.persist(event)
        except asyncio.CancelledError:
            # re-armed: delivered again at the stream's next step
            current = asyncio.current_task()
            if current is not None:
                current.cancel()


async def forward(stream, sink):
    async for event in stream:
        try:
            await sink.send(event)
        except asyncio.CancelledError:
            asyncio.current_task().cancel()


async def mirror(stream, sink, watcher):
    async for event in stream:
        try:
            await sink.send(event)
        except asyncio.CancelledError:  # expect: CAN401
            # cancels the watcher, not this task: the cancellation is gone
            watcher.cancel()


async def audit(stream, sink, log):
    async for event in stream:
        try:
            await sink.send(event)
        except asyncio.CancelledError:  # expect: CAN401
            current = asyncio.current_task()
            log.info("send interrupted in %s", current.get_name())
