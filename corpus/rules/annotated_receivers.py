"""Methods of a parameter resolved through its annotation.

`hub: "TaskHub[Job]"` names a class of the tree: `hub.create_task(coro)` is
that class's method, whose summary says what it does. Here it keeps every
task it makes in a set it cancels on stop, so the caller only borrows the
task. A spawner whose name says it creates a task (`create_task_logged`,
imported from elsewhere) starts its coroutine as the outermost frame of a
task of its own.
"""

import asyncio

from taskutils import create_task_logged


class TaskHub:
    def __init__(self):
        self._tasks = set()
        self.running = True

    def create_task(self, coro, name=None):
        return self._spawn(coro, name)

    def _spawn(self, coro, name):
        task = asyncio.create_task(coro, name=name)
        if self.running:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return task

    async def stop(self):
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def work(update):
    await asyncio.sleep(0)


# Fine: the hub keeps the task; the caller only borrows it.
async def dispatch(update, hub: "TaskHub[object]", lock, state):
    task = hub.create_task(work(update))
    async with lock:
        state[update] = task


# Buggy: the same with a task nothing keeps until the lock is taken.
async def dispatch_plain(update, lock, state):
    task = asyncio.create_task(work(update))
    async with lock:  # expect: CAN102
        state[update] = task


class Watchdog:
    def __init__(self, browser):
        self._browser = browser
        self._task = None

    def start(self):
        self._task = create_task_logged(self._monitor(), "monitor")

    def stop(self):
        if self._task is not None:
            self._task.cancel()

    # Fine: the watchdog's own task, stopped by stop().
    async def _monitor(self):
        while True:
            try:
                await self._browser.check()
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                break


class Spawner:
    """A wrapper that only starts the task: it keeps nothing."""

    def create_task(self, coro):
        return asyncio.create_task(coro)

    # Buggy: the task the wrapper hands back is this function's own.
    async def dispatch(self, update, lock, state):
        task = self.create_task(work(update))
        async with lock:  # expect: CAN102
            state[update] = task
