"""A task the function cancels through a closure of its own.

`idle()` waits on a sleeping task that its signal handler, defined in the
function, cancels (`task.cancel()`): the CancelledError caught around
`await task` is that task's, the function's own request to stop waiting,
as after `task.cancel(); await task`. The twin's handler cancels another
task, so the cancellation caught around the wait may be the caller's.
"""

import asyncio
import signal


async def idle(loop):
    task = None

    def on_signal():
        task.cancel()

    loop.add_signal_handler(signal.SIGTERM, on_signal)
    while True:
        task = asyncio.create_task(asyncio.sleep(600))
        try:
            await task
        except asyncio.CancelledError:
            break


async def idle_other(loop, worker):
    task = None

    def on_signal():
        worker.cancel()

    loop.add_signal_handler(signal.SIGTERM, on_signal)
    while True:
        task = asyncio.create_task(asyncio.sleep(600))
        try:
            await task
        except asyncio.CancelledError:  # expect: CAN401
            break
