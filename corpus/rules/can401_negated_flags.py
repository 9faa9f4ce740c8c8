"""`except CancelledError: if not self._found: raise`, where the method
that cancels the search sets `self._found = True` right before its
`cancel()`: the handler swallows only that cancellation (the flag is set
on the path that goes on). The twin tests a flag nothing sets before a
cancel, so the swallow is of whatever cancellation came.
"""

import asyncio


class Finder:
    def __init__(self, target):
        self.target = target
        self._found = False
        self._ready = False
        self._search = None

    def start(self, probe):
        self._search = asyncio.create_task(probe.run())

    def on_reply(self, host):
        if host == self.target:
            self._found = True
            if self._search:
                self._search.cancel()

    def on_ready(self):
        self._ready = True

    async def wait(self):
        try:
            await self._search
        except asyncio.CancelledError:
            if not self._found:
                raise
        return self._found

    async def wait_ready(self):
        try:
            await self._search
        except asyncio.CancelledError:  # expect: CAN401
            if not self._ready:
                raise
        return self._ready
