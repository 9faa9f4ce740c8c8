import asyncio
import logging

log = logging.getLogger(__name__)


class BackupsAPI:
    def __init__(self, store):
        self.store = store

    # Fine: the router runs it for each upload request (routes.py).
    async def upload(self, request):
        try:
            async for chunk in request.content.iter_chunked(65536):
                await self.store.write(chunk)
        except asyncio.CancelledError:
            log.warning("upload cancelled by the client")
            return False
        return True

    # Buggy: the restore command awaits it and then reports success.
    async def verify(self, slug):
        try:
            await self.store.check(slug)
        except asyncio.CancelledError:  # expect: CAN401
            log.warning("verification cancelled")
        return slug


async def restore(api: BackupsAPI, slug):
    checked = await api.verify(slug)
    print("restored", checked)
