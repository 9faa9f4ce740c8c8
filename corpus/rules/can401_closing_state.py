"""A handler that swallows a cancellation only while its application is
shutting down.

`except CancelledError: if self.app.should_stop: return; raise`: the
attribute says the application is stopping (catalog closing-flag), so the
cancellation swallowed is that stop's. The twin tests an attribute that
says nothing of a shutdown (a verbosity option that is not the object's),
so the swallow may eat the caller's cancellation.
"""

import asyncio


class Fetcher:
    def __init__(self, app, consumer):
        self.app = app
        self.consumer = consumer

    async def drain(self):
        try:
            while True:
                await self.consumer.fetch_once()
        except asyncio.CancelledError:
            if self.app.should_stop:
                return
            raise

    async def drain_quietly(self):
        try:
            while True:
                await self.consumer.fetch_once()
        except asyncio.CancelledError:  # expect: CAN401
            if self.app.quiet:
                return
            raise
