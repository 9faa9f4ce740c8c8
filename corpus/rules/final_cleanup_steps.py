# expect-mode: strict
"""A step of the final cleanup is not a window of what the cleanup releases next.

`finally: await cancel_and_wait(reader); await stream.aclose()`: when the
first await is interrupted, the stream's close is skipped. The stream is
not unowned there: it is being cleaned up, and what abandons its close is a
cancellation landing in the cleanup itself. That is CAN302's subject (a
strict rule: shield the cleanup), not a CAN102 window. Only a cleanup that
runs once, as the function ends, counts: in a loop the same finally runs on
every pass, and a cancellation there is the first one.
"""

import asyncio
from typing import Any


async def cancel_and_wait(*tasks: "asyncio.Task[Any]") -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def pump(source: Any, stream: Any) -> None:
    async for chunk in source:
        await stream.send(chunk)


# Strict only: the reader's cancel-and-wait is a cleanup step before the close.
async def relay(open_stream: Any, source: Any, sink: Any) -> None:
    stream = await open_stream()
    reader = asyncio.create_task(pump(source, stream))
    try:
        async for item in stream:
            await sink.put(item)
    finally:
        await cancel_and_wait(reader)  # expect: CAN302
        await stream.aclose()  # expect: CAN302


# Buggy: a pause in the finally is no cleanup step; a cancellation there
# skips the close on the normal way out.
async def relay_then_pause(open_stream: Any, source: Any, sink: Any) -> None:
    stream = await open_stream()
    try:
        async for item in stream:
            await sink.put(item)
    finally:
        await asyncio.sleep(0.1)  # expect: CAN102
        await stream.aclose()  # expect: CAN302


# Buggy: the same cleanup inside a reconnect loop runs on every pass.
async def relay_reconnecting(open_stream: Any, source: Any, sink: Any, stop: asyncio.Event) -> None:
    while not stop.is_set():
        stream = await open_stream()
        reader = asyncio.create_task(pump(source, stream))
        try:
            async for item in stream:
                await sink.put(item)
        finally:
            await cancel_and_wait(reader)  # expect: CAN102, CAN302
            await stream.aclose()  # expect: CAN302
