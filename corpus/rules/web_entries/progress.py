import asyncio

from tornado.web import RequestHandler


class BaseHandler(RequestHandler):
    async def prepare(self):
        self.user = await self.settings["auth"].current_user(self)


class Cache:
    def __init__(self, backend):
        self.backend = backend

    # Buggy: a plain class's get, awaited by whoever asks the cache.
    async def get(self, key):
        try:
            return await self.backend.fetch(key)
        except asyncio.CancelledError:  # expect: CAN401
            return None
