import asyncio
import logging


class Engine:
    def __init__(self, sessions):
        self.sessions = sessions

    # Fine: the request task's last frames (middleware.py's ASGI app awaits
    # it); a failure, or the request's own cancellation, is answered with a
    # response and the task ends.
    async def handle_request(self, *args):
        scope, receive, send = args
        try:
            body = await self.sessions.handle(scope, receive)
            status = 200
        except:
            logging.exception("request handler error")
            body, status = b"", 500
        await send({"type": "http.response.start", "status": status})
        await send({"type": "http.response.body", "body": body})


class Primary:
    def __init__(self, sessions):
        self.sessions = sessions

    # Buggy twin: a method name two classes define: which one the app
    # awaits is not known, and a caller that awaits this one is cancelled
    # in vain.
    async def dispatch(self, request):
        try:
            await self.sessions.handle(request)
        except asyncio.CancelledError:  # expect: CAN401
            pass
        await request.respond(204)


class Secondary:
    async def dispatch(self, request):
        await request.respond(404)
