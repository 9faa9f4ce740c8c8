"""An ASGI application that hands each request to the engine it was given.

`self.engine` is a constructor argument with no annotation: its class is
not known here. The scan finds the one coroutine of the tree named
`handle_request` (engine.py) and reads it as the request task's last
frames. `dispatch`, defined by two classes, stays unknown.
"""


class Request:
    def __init__(self, scope, receive, send):
        self.scope = scope
        self.receive = receive
        self.send = send


class EngineApp:
    def __init__(self, engine, fallback):
        self.engine = engine
        self.fallback = fallback

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            await self.engine.handle_request(scope, receive, send)
        else:
            await self.fallback.dispatch(Request(scope, receive, send))
