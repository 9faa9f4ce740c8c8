import asyncio


class ClientHandler:
    def __init__(self, server, request):
        self.server = server
        self.request = request

    # Fine: the route's handler (mount.py) returns what it returns, as the
    # last step of the request's task.
    async def handle(self):
        ws = await self.server.accept(self.request)
        try:
            async for msg in ws:
                await self.server.dispatch(msg)
        except asyncio.CancelledError:
            print("client went away")
        return ws
