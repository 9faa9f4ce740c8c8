"""Coroutines a web framework runs for each request (CAN401).

A handler registered with a router (`web.post("/upload", api.upload)`,
`app.router.add_route(...)`), a verb method of a handler class
(tornado's `RequestHandler.get`, Home Assistant's `HomeAssistantView.get`) and an ASGI application (`__call__(self,
scope, receive, send)`) are each the outermost frame of the task the
framework runs the request in: a cancellation they end on quietly is that
request's end, and no caller of theirs goes on as if nothing happened.
The same handler shapes called by code of the tree, which goes on after
them, swallow that caller's cancellation.
`ClientHandler.handle`, in another module, is what a route's handler
returns `await handler.handle()` of: the request task's last frames.
`console.interact` is the connection handler a server runs for each
client (`asyncio.start_server(functools.partial(interact, self), ...)`).
A FastAPI route (`@router.post(path)` of `router = APIRouter()`) runs in
the request's task, which FastAPI never cancels when the client goes
away: what it awaits in place meets no cancellation (a Quart route is
cancelled on disconnect and stays read as any coroutine). So is a
websockets server's connection handler (`websockets.serve(handle_client,
...)`): closing the server waits for its handlers, never cancels them.
"""
