from .clients import ClientHandler


def mount(server, path):
    handlers = set()

    async def _handle_ws(request):
        handler = ClientHandler(server, request)
        handlers.add(handler)
        try:
            return await handler.handle()
        finally:
            handlers.discard(handler)

    server.app.router.add_route("GET", path, _handle_ws)
