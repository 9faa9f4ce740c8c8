"""A task's own coroutine that starts over by awaiting itself after an error.

`_poll` runs only as the task `start()` makes; after an unexpected error it
starts over with `return await self._poll()`, a call made in its own task.
That await is no other caller's, so `_poll` stays the outermost frame of
the task and the cancellation it ends on is the task's shutdown. The twin
`_watch` is also awaited by `refresh()`, in the caller's task: the
cancellation it swallows there is the caller's.
"""

import asyncio


class Poller:
    def __init__(self, source):
        self._source = source
        self._tasks = {}

    def start(self):
        self._tasks["poll"] = asyncio.create_task(self._poll())
        self._tasks["watch"] = asyncio.create_task(self._watch())

    async def _poll(self):
        try:
            while True:
                await self._source.fetch()
                await asyncio.sleep(30)
        except asyncio.CancelledError:
            pass
        except Exception:
            return await self._poll()

    async def _watch(self):
        try:
            while True:
                await self._source.watch()
        except asyncio.CancelledError:  # expect: CAN401
            pass
        except Exception:
            return await self._watch()

    async def refresh(self):
        await self._watch()
