"""Gathering tasks the function has just cancelled.

`for t in tasks: t.cancel()` (or `t.cancel(); cancelled.append(t)`), then
`try: await asyncio.gather(*tasks)` / `except CancelledError: pass`: the
CancelledError caught is the children's, as in `t.cancel(); await t`. The
same handler around a gather of tasks nobody cancelled swallows the
caller's cancellation.
"""

import asyncio


# Fine: every task gathered was cancelled first.
async def stop_all(tasks: list) -> None:
    for t in tasks:
        t.cancel()
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        pass


# Fine: the same through a list of the cancelled ones.
async def stop_pending(tasks: list) -> None:
    cancelled = []
    for t in tasks:
        if not t.done():
            t.cancel()
            cancelled.append(t)
    try:
        await asyncio.gather(*cancelled)
    except asyncio.CancelledError:
        pass


# Buggy: nothing was cancelled; the caller's cancellation is dropped.
async def wait_all(tasks: list) -> None:
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:  # expect: CAN401
        pass
