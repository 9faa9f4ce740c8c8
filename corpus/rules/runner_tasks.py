"""Tasks a runner or a sweep of every task reaches.

`asyncio.run(main())` cancels, when main ends however it ends, every task
still running and waits for them: the tasks the main coroutine makes are
the runner's. A `finally` that sweeps `asyncio.all_tasks()` for the tasks
its try tagged, and waits for them, reaches each of them too. A task made
in a coroutine that a caller awaits, with no sweep, is the function's own.
"""

import asyncio
import signal


def main(argv):
    async def run():
        stop = asyncio.create_task(wait_for_signals([signal.SIGINT, signal.SIGTERM]))
        serving = asyncio.create_task(serve_forever(argv))
        await asyncio.wait([stop, serving], return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        serving.cancel()

    asyncio.run(run())


async def wait_for_signals(signals):
    await asyncio.sleep(3600)


async def serve_forever(argv):
    await asyncio.sleep(3600)


class Poller:
    def __init__(self, bridge):
        self._bridge = bridge

    # Fine: every activation task is tagged and waited for in the finally.
    async def run(self):
        tag = object()
        try:
            while True:
                act = await self._bridge.poll()
                task = asyncio.create_task(self._handle(act))
                setattr(task, "_poller_tag", tag)
        finally:
            mine = [t for t in asyncio.all_tasks() if getattr(t, "_poller_tag", None) is tag]
            if mine:
                await asyncio.wait(mine)

    async def _handle(self, act):
        await asyncio.sleep(0)

    # Buggy: the same loop without the sweep, keeping each task only after
    # the acknowledgement.
    async def run_untracked(self, pending):
        while True:
            act = await self._bridge.poll()
            task = asyncio.create_task(self._handle(act))
            await self._bridge.ack(act)  # expect: CAN102
            pending.append(task)


async def serve(argv):
    # Buggy: a caller awaits this one; its cancel leaves the task running.
    serving = asyncio.create_task(serve_forever(argv))
    await asyncio.sleep(1)  # expect: CAN102
    serving.cancel()


async def run_controller(argv):
    # Buggy: run by asyncio.run below, but also awaited under a timeout by
    # the evaluation below, and then the task outlives the cancel.
    agent = asyncio.create_task(serve_forever(argv))
    await asyncio.sleep(1)  # expect: CAN102
    agent.cancel()


def cli(argv):
    asyncio.run(run_controller(argv))


async def evaluate(argv):
    await asyncio.wait_for(run_controller(argv), 60)


async def run_session(argv):
    # Fine: the module's own main, run by asyncio.run and called nowhere
    # else: the runner cancels what it leaves running when it ends.
    agent = asyncio.create_task(serve_forever(argv))
    await asyncio.sleep(1)
    agent.cancel()


def session_cli(argv):
    asyncio.run(run_session(argv))
