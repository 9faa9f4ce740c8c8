"""A task found in the done set `asyncio.wait` hands back has ended.

`done, _ = await asyncio.wait({work, reading}, return_when=FIRST_COMPLETED)`
then `if work not in done: await work`: on the branch where work is in
done it has finished, and on the other the await settles it, so the next
pass's checkpoint holds nothing of it. A test that only reads the result
when work is done leaves it running otherwise.
"""

import asyncio
from typing import Any, Awaitable, Callable


# Fine: the work of a pass has ended (in done, or awaited) before the next read.
async def relay(source: Any, handle: Callable[[Any], Awaitable[None]]) -> None:
    reading = asyncio.create_task(source.read())
    while True:
        item = await reading
        if item is None:
            return
        work = asyncio.create_task(handle(item))
        reading = asyncio.create_task(source.read())
        try:
            done, _ = await asyncio.wait({work, reading}, return_when=asyncio.FIRST_COMPLETED)
            if work not in done:
                await work
        except BaseException:
            work.cancel()
            reading.cancel()
            raise


# Buggy twin: work not in done runs on into the next pass's read.
async def relay_loose(source: Any, handle: Callable[[Any], Awaitable[None]]) -> None:
    reading = asyncio.create_task(source.read())
    while True:
        item = await reading  # expect: CAN102
        if item is None:
            return
        work = asyncio.create_task(handle(item))
        reading = asyncio.create_task(source.read())
        try:
            done, _ = await asyncio.wait({work, reading}, return_when=asyncio.FIRST_COMPLETED)
            if work in done:
                print(work.result())
        except BaseException:
            work.cancel()
            reading.cancel()
            raise
