"""A task the function cancels through a closure of its own.

`idle()` waits on a sleeping task that its signal handler, defined in the
function, cancels (`task.cancel()`): the CancelledError caught around
`await task` is that task's, the function's own request to stop waiting,
as after `task.cancel(); await task`. The twin's handler cancels another
task, so the cancellation caught around the wait may be the caller's.
`run_turn()` hands the task's bound `task.cancel` to the loop as the
signal's callback: the same request, without a closure. `wait_forever()`'s
handler hands the bound `task.cancel` to a worker thread: the same again.
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


async def run_turn(agent, prompt):
    # Fine: ^C cancels the turn's task through its bound cancel, handed to
    # the loop as the signal's callback; the handler takes that task's end.
    task = asyncio.ensure_future(agent.reply(prompt))
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        print("turn interrupted")
    finally:
        loop.remove_signal_handler(signal.SIGINT)


async def run_turn_with_spinner(agent, prompt, spinner):
    # Buggy: the callback cancels the spinner, not the turn being awaited.
    task = asyncio.ensure_future(agent.reply(prompt))
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, spinner.cancel)
    try:
        await task
    except asyncio.CancelledError:  # expect: CAN401
        print("turn interrupted")


async def wait_forever(loop):
    task = None

    def on_term(signum, frame):
        loop.call_soon_threadsafe(loop.run_in_executor, None, task.cancel)

    signal.signal(signal.SIGTERM, on_term)
    hours = 0
    while hours < 24 * 365:
        task = asyncio.ensure_future(asyncio.sleep(3600))
        try:
            await task
        except asyncio.CancelledError:
            return hours
        hours += 1
    return hours
