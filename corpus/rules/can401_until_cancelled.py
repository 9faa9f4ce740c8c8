"""Private loops that run until they are cancelled.

`while True:` around `try: await poll()` / `except CancelledError: break`,
where nothing else leaves the loop, in a coroutine private to its module
(`_poll_forever`, or a decorator's wrapper defined in another function)
that the module never awaits in place: it runs until it is cancelled,
which is how whoever starts it as a task stops it, and ending quietly then
is its design. A public one, or a private one the module awaits, may run
in a caller's task whose cancellation (a timeout around the call) it would
drop; so may one that hands out its own task (`call_later(n,
current_task().cancel)`): it waits for a cancellation it arranged and
catches a caller's with it (naming the task in a log hands nothing out).
A loop that also ends by itself, a handler that goes round again, and an
async generator (whose consumer would see its cancellation become a normal
end of the stream) still swallow it.
"""

import asyncio
import functools
from typing import Any, AsyncIterator, Callable


# Fine: private, never awaited here; cancellation is the only way out.
async def _poll_forever(device: Any, interval: float) -> None:
    while True:
        try:
            await device.refresh()
        except asyncio.CancelledError:
            break
        except Exception:
            device.log_failure()
        await asyncio.sleep(interval)


def periodic(interval: float) -> Callable:
    def wrap(method: Callable) -> Callable:
        # Fine: the wrapper is the body of the polling task it is run as.
        @functools.wraps(method)
        async def wrapper(*args: Any) -> None:
            while True:
                try:
                    await method(*args)
                except asyncio.CancelledError:
                    break
                await asyncio.sleep(interval)

        return wrapper

    return wrap


# Buggy: public, so a caller may await it under a timeout.
async def poll_forever(device: Any, interval: float) -> None:
    while True:
        try:
            await device.refresh()
        except asyncio.CancelledError:  # expect: CAN401
            break
        await asyncio.sleep(interval)


# Buggy: it schedules its own cancellation to end the loop, and catches a
# caller's cancel with it.
async def _collect_for(conn: Any, seconds: float, got: list) -> None:
    asyncio.get_running_loop().call_later(seconds, asyncio.current_task().cancel)
    while True:
        try:
            got.append(await conn.read())
        except asyncio.CancelledError:  # expect: CAN401
            break


# Fine: naming its task in a log hands nothing out.
async def _watch(device: Any) -> None:
    while True:
        try:
            await device.refresh()
        except asyncio.CancelledError:
            print("watcher stopped:", asyncio.current_task())
            break


# Buggy: the module awaits it in place, in the caller's task.
async def _drain(conn: Any) -> None:
    while True:
        try:
            await conn.read()
        except asyncio.CancelledError:  # expect: CAN401
            break


async def close_quietly(conn: Any) -> None:
    await asyncio.wait_for(_drain(conn), 1)


# Buggy: the loop also ends when the download is complete.
async def _download_all(client: Any) -> list:
    items: list = []
    while True:
        try:
            page = await client.next_page()
        except asyncio.CancelledError:  # expect: CAN401
            break
        if not page:
            break
        items.extend(page)
    return items


# Buggy: the handler goes round again, so the task never stops.
async def _poll_stubbornly(device: Any) -> None:
    while True:
        try:
            await device.refresh()
        except asyncio.CancelledError:  # expect: CAN401
            device.log_failure()
        await asyncio.sleep(1)


# Buggy: a generator's consumer sees a normal end instead of its cancel.
async def _frames(conn: Any) -> AsyncIterator[bytes]:
    while True:
        try:
            frame = await conn.read()
        except asyncio.CancelledError:  # expect: CAN401
            break
        yield frame
