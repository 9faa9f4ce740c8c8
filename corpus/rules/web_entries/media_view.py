import asyncio

from homeassistant.components.http import HomeAssistantView


class MediaProxyView(HomeAssistantView):
    url = "/api/media_proxy/{token}"
    requires_auth = False

    # Fine: Home Assistant's HTTP server runs a view's verb method as the
    # request task's outermost frame (aiohttp cancels it when the client
    # goes away); returning ends that request.
    async def get(self, request, token):
        session = request.app["session"]
        try:
            async with session.get(self.source(token)) as upstream:
                return await upstream.read()
        except:
            return None

    def source(self, token):
        return f"http://media.local/{token}"


class MediaCache:
    def __init__(self, session):
        self.session = session

    # Buggy: the same shape on a plain class, awaited by its callers.
    async def get(self, url):
        try:
            async with self.session.get(url) as upstream:
                return await upstream.read()
        except:  # expect: CAN401
            return None
