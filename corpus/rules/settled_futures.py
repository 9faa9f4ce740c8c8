"""A future given its outcome.

`fut.set_result(value)` and `fut.set_exception(exc)` leave the future done
(or raise because it already was, cancelled from outside): nothing is left
to release, and a scheduler that goes on to its next pause holds nothing of
it. A future not yet given one at that pause is still waited on.
"""

import asyncio


# Fine: every path to the pause settles the caller's future.
async def run_calls(queue: asyncio.Queue) -> None:
    while True:
        fut, coro = await queue.get()
        try:
            fut.set_result(await coro)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except Exception as exc:
            fut.set_exception(exc)
        await asyncio.sleep(0.01)


# Buggy: the result is computed after the pause; a cancel there leaves the
# caller waiting on a future nobody will settle.
async def run_calls_late(queue: asyncio.Queue) -> None:
    while True:
        fut, coro = await queue.get()
        await asyncio.sleep(0.01)  # expect: CAN102
        try:
            fut.set_result(await coro)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except Exception as exc:
            fut.set_exception(exc)
