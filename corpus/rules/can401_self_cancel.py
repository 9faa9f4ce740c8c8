"""A handler that completes only when the cancellation is the function's
own request.

`stopper.add_done_callback(cancel_me)` where `cancel_me`, defined in the
function, cancels the current task (`asyncio.current_task().cancel()`):
once the stopper is done, a cancellation is the one the function asked
for. A handler that returns only when `stopper.done()` and re-raises
otherwise swallows nothing a caller sent.
"""

import asyncio
from typing import Any, AsyncIterator


async def request(url: str) -> Any:
    await asyncio.sleep(0.1)
    return url


# Fine: returns only when the stopper fired the cancellation itself.
async def stream(url: str, stopper: asyncio.Future) -> AsyncIterator[Any]:
    def cancel_me(_: asyncio.Future) -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()

    if not stopper.done():
        stopper.add_done_callback(cancel_me)
    try:
        response = await request(url)
    except asyncio.CancelledError:
        if stopper is not None and stopper.done():
            return
        raise
    finally:
        stopper.remove_done_callback(cancel_me)
    yield response


# Swallows: the stopper's callback only logs; a done stopper says nothing
# of where the cancellation came from.
async def stream_logged(url: str, stopper: asyncio.Future) -> AsyncIterator[Any]:
    def note(_: asyncio.Future) -> None:
        print("stopper fired")

    stopper.add_done_callback(note)
    try:
        response = await request(url)
    except asyncio.CancelledError:  # expect: CAN401
        if stopper.done():
            return
        raise
    yield response
