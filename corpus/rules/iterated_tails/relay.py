"""Tasks that iterate a listener of an object whose class is not known here."""
import asyncio


class Relay:
    def __init__(self):
        self._backend = None
        self._media = None
        self._task = None
        self._media_task = None

    def attach(self, backend, media):
        self._backend = backend
        self._media = media
        self._task = asyncio.create_task(self._pump())
        self._media_task = asyncio.create_task(self._play())

    def detach(self):
        self._task.cancel()
        self._media_task.cancel()

    async def _pump(self):
        async for item in self._backend.events():
            print(item)

    async def _play(self):
        async for item in self._media.feed():
            print(item)
