"""Cleanup written once as a nested function and called where needed.

`async def stop(): task.cancel(); await task` inside the function that
made the task, called from its `finally` (and on an early error): the call
releases the task there, as the same statements written inline would. The
twins call it only on the normal path, or call a nested helper that only
reads the task. A helper that declares the task `nonlocal` and clears it
after the cancel still cancels the outer task; one that only clears it, or
cancels a task of its own, does not.
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


async def relay_link(link: Any, outbox: asyncio.Queue) -> None:
    sender: Any = None

    def drop_sender() -> None:
        # `nonlocal`: the name it clears after the cancel is relay_link's own.
        nonlocal sender
        if sender is not None:
            sender.cancel()
            sender = None

    # Fine: the nested helper cancels the task it shares through `nonlocal`.
    try:
        sender = asyncio.create_task(link.send_all(outbox))
        await link.wait_closed()
    except BaseException:
        drop_sender()
        raise


async def relay_uplink(link: Any, outbox: asyncio.Queue) -> None:
    sender: Any = None

    def forget_sender() -> None:
        nonlocal sender
        sender = None

    # Buggy twin: the nested helper only forgets the task; nothing stops it.
    try:
        sender = asyncio.create_task(link.send_all(outbox))
        await link.wait_closed()  # expect: CAN102
    except BaseException:
        forget_sender()
        raise


async def relay_downlink(link: Any, inbox: asyncio.Queue) -> None:
    receiver = asyncio.create_task(link.recv_all(inbox))

    def own_receiver() -> None:
        # No `nonlocal`: this `receiver` is the helper's own local.
        receiver = asyncio.create_task(link.recv_all(inbox))
        receiver.cancel()

    # Buggy twin: the helper cancels a task of its own, not relay_downlink's.
    try:
        await link.wait_closed()  # expect: CAN102
    except BaseException:
        own_receiver()
        raise
