import asyncio

from .progress import BaseHandler


class ProgressHandler(BaseHandler):
    # Fine: tornado calls get for each request; a spawn cancelled under the
    # progress stream ends the stream, and the request with it.
    async def get(self, name):
        try:
            async for event in self.settings["spawner"].progress(name):
                self.write(event)
                await self.flush()
        except asyncio.CancelledError:
            self.write({"failed": True})
        self.finish()

    # Buggy: get's helper; get goes on after it (here through the cache).
    async def latest(self, name):
        try:
            return await self.settings["spawner"].latest(name)
        except asyncio.CancelledError:  # expect: CAN401
            return None

    async def post(self, name):
        event = await self.latest(name)
        self.write(event or {})
