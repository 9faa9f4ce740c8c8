"""What the code after a checkpoint does with a value decides the window.

A cancellation at a checkpoint leaks a value only if the code that would
have run instead was going to release it, register it or hand it over:
then the cancellation is what skips that. A value the function never names
again from the checkpoint on meets the same fate either way (it was handed
to code not seen, or it leaks whatever happens), so the checkpoint is no
window of it. Naming it later in any way (a release, a return, a nested
function that uses it, a later pass of the loop) keeps the window.
"""

import asyncio
from typing import Any


async def serve(conn: Any) -> None: ...


class Activity:
    def __init__(self, runner: Any) -> None:
        self._runner = runner

    # Fine: the resources go to start(); on failure the handler takes them
    # back. Past the try nothing names them, so the wait there is no window.
    async def switch(self, prepare: Any, on_enter: Any) -> None:
        resources = await prepare()
        try:
            await self._runner.start(resources=resources)
        except BaseException:
            await resources.cleanup()
            raise
        await asyncio.shield(on_enter)

    # Buggy: the same shape, but the resources are cleaned up after the wait.
    async def switch_late(self, prepare: Any, on_enter: Any) -> None:
        resources = await prepare()
        try:
            await self._runner.start(resources=resources)
        except BaseException:
            await resources.cleanup()
            raise
        await asyncio.shield(on_enter)  # expect: CAN102
        await resources.cleanup()


# Fine: the same hand-over inside a lock of unknown type (its exit may
# suspend): nothing names the resources after the statement.
async def switch_locked(lock: Any, runner: Any, prepare: Any) -> None:
    async with lock:
        resources = await prepare()
        try:
            await runner.start(resources=resources)
        except BaseException:
            await resources.cleanup()
            raise


# Buggy: named after the statement, so its exit is a window.
async def switch_locked_late(lock: Any, runner: Any, prepare: Any) -> None:
    async with lock:  # expect: CAN102
        resources = await prepare()
        try:
            await runner.start(resources=resources)
        except BaseException:
            await resources.cleanup()
            raise
    await resources.cleanup()


# Fine: a background task started and never named again: cancelling the
# starter does not change what becomes of it.
async def start_background(ready: asyncio.Event) -> None:
    task = asyncio.create_task(serve(None))
    await ready.wait()


# Buggy: the task is awaited once the event is set.
async def start_and_join(ready: asyncio.Event) -> None:
    task = asyncio.create_task(serve(None))
    await ready.wait()  # expect: CAN102
    await task


# Buggy: a closure defined before the wait releases it later.
async def start_with_stopper(ready: asyncio.Event, stoppers: list) -> None:
    task = asyncio.create_task(serve(None))

    def stop() -> None:
        task.cancel()

    await ready.wait()  # expect: CAN102
    stoppers.append(stop)


# Buggy: in a loop, the next pass names it before the checkpoint comes back.
async def poll(ready: asyncio.Event) -> None:
    task = None
    while not ready.is_set():
        if task is not None:
            await task
        task = asyncio.create_task(serve(None))
        await asyncio.sleep(1)  # expect: CAN102


# Fine: after the wait the connection is only used, never released or
# handed on: cancelled there or not, it is left open (a leak of its own,
# which no cancellation causes).
async def send_after(connect: Any, ready: asyncio.Event) -> None:
    ws = await connect()
    await ready.wait()
    await ws.send_str("hello")
    print(ws.closed)


# Buggy: the same, closed at the end.
async def send_after_closed(connect: Any, ready: asyncio.Event) -> None:
    ws = await connect()
    await ready.wait()  # expect: CAN102
    await ws.send_str("hello")
    await ws.close()


# Fine: on the branch that drains, the writer is not named again, and the
# only call in the handler below (`type(e)`) cannot release anything.
async def send_stop(key: str, live: set, log: Any) -> None:
    try:
        reader, writer = await asyncio.open_connection(key, 8000)
        if key in live:
            writer.write(b"stop")
            await writer.drain()
        else:
            writer.close()
            await writer.wait_closed()
    except Exception as e:
        log.error("stop failed: %s", type(e).__name__)


# Buggy: the handler's cleanup may release the connection by its key.
async def send_stop_cleaned(key: str, live: set, forget: Any) -> None:
    try:
        reader, writer = await asyncio.open_connection(key, 8000)
        if key in live:
            writer.write(b"stop")
            await writer.drain()  # expect: CAN102
        else:
            writer.close()
            await writer.wait_closed()
    except Exception:
        await forget(key)
        raise
