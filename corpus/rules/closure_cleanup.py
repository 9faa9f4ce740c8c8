"""Cleanup written once as a nested function and called where needed.

`async def stop(): task.cancel(); await task` inside the function that
made the task, called from its `finally` (and on an early error): the call
releases the task there, as the same statements written inline would. The
twins call it only on the normal path, or call a nested helper that only
reads the task.
"""

import asyncio
import contextlib
from typing import Any, AsyncIterator, Callable


def merge_with_heartbeat(stream: Callable[[], AsyncIterator[Any]], beat: Any, interval: float):
    # Fine: both tasks are stopped by stop_tasks() in the finally.
    async def merged() -> AsyncIterator[Any]:
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)

        async def drain() -> None:
            async for item in stream():
                await queue.put((False, item))
            await queue.put((True, None))

        async def heartbeat() -> None:
            while True:
                await asyncio.sleep(interval)
                await queue.put((False, beat))

        beat_task = asyncio.create_task(heartbeat())
        drain_task = asyncio.create_task(drain())

        async def stop_tasks() -> None:
            drain_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain_task
            beat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat_task

        try:
            while True:
                done, item = await queue.get()
                if done:
                    break
                yield item
        finally:
            await stop_tasks()

    return merged


async def pump(source: Any, sink: Any) -> None:
    reader = asyncio.create_task(source.read_all())

    def stop_reader() -> None:
        reader.cancel()

    # Buggy twin: the nested stop runs only after the loop ends normally.
    while True:
        chunk = await sink.ready()  # expect: CAN102
        if chunk is None:
            break
    stop_reader()


async def watch(source: Any, sink: Any) -> None:
    reader = asyncio.create_task(source.read_all())

    def report() -> None:
        print("reader done:", reader.done())

    # Buggy twin: the nested helper called in the finally only reads the task.
    try:
        while await sink.ready():  # expect: CAN102
            pass
    finally:
        report()
    reader.cancel()
