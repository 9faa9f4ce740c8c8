import asyncio


class EventsApp:
    def __init__(self, on_startup, on_shutdown):
        self.on_startup = on_startup
        self.on_shutdown = on_shutdown

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self.lifespan(scope, receive, send)
        else:
            await self.stream(receive, send)

    # Fine: the server runs the lifespan in a task of its own; a hook that
    # fails or is cancelled ends it with the failure reported.
    async def lifespan(self, scope, receive, send):
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                try:
                    await self.on_startup()
                except:
                    await send({"type": "lifespan.startup.failed"})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                await self.on_shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # Buggy: no ASGI entry, a helper __call__ goes on from.
    async def stream(self, receive, send):
        try:
            await send({"type": "http.response.start", "status": 200})
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # expect: CAN401
            return
        await send({"type": "http.response.body", "body": b"done"})
