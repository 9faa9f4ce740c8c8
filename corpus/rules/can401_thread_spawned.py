"""Coroutines started as tasks from another thread.

`loop.call_soon_threadsafe(loop.create_task, callback())` asks the loop to
start the coroutine as a task of its own, and
`asyncio.run_coroutine_threadsafe(coro, loop)` does the same: a handler at
the top of that coroutine ends its own task, which reports through the
future it was given. The same coroutine awaited by a caller swallows the
caller's cancellation.
"""

import asyncio
import concurrent.futures


class Console:
    def __init__(self, loop):
        self.loop = loop

    def runcode(self, func):
        future = concurrent.futures.Future()

        async def callback():
            try:
                result = await func()
            except BaseException:
                result = False
            future.set_result(result)

        self.loop.call_soon_threadsafe(self.loop.create_task, callback())
        return future.result()

    def submit(self, func):
        async def job():
            try:
                return await func()
            except asyncio.CancelledError:
                return None

        return asyncio.run_coroutine_threadsafe(job(), self.loop)

    async def run_here(self, func):
        async def inline():
            try:
                return await func()
            except asyncio.CancelledError:  # expect: CAN401
                return None

        return await inline()
