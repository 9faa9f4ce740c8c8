"""Loops started as background tasks by another module, through the
project's spawner and the module's name (`tickers.refresh()`)."""

import asyncio


# Fine: the outermost frame of the task app.py starts; its cancellation is
# its own stop.
async def refresh(interval: float, redraw) -> None:
    while True:
        try:
            await asyncio.sleep(interval)
            redraw()
        except asyncio.CancelledError:
            break


# Buggy twin: awaited in its caller's task (app.py's render), where the
# caller's cancellation is swallowed.
async def settle(redraw) -> None:
    try:
        await asyncio.sleep(0.05)
        redraw()
    except asyncio.CancelledError:  # expect: CAN401
        pass
