"""Response objects a web server hands its request handlers.

`resp = await start_streaming(request)` of a helper annotated to return
`aiohttp.web.StreamResponse` hands back the response prepared on this
request: the server owns its connection and closes it when the handler
returns or fails, so it is no resource of the handler's, whatever the
helper is named. The twin's helper hands back a client session, which is
the handler's to close.
"""

import aiohttp
from aiohttp import web


async def start_streaming(request: web.Request, content_type: str) -> web.StreamResponse:
    resp = web.StreamResponse(status=200)
    resp.content_type = content_type
    await resp.prepare(request)
    return resp


async def start_session(base_url: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(base_url=base_url)


# Fine: the server closes the response it prepared with the request.
async def log_handler(request: web.Request) -> web.StreamResponse:
    resp = await start_streaming(request, "text/plain")
    async for record in request.app["log"].follow():
        await resp.write(record)
    return resp


# Buggy: the session is the handler's own, closed only at the end.
async def relay_handler(request: web.Request) -> web.Response:
    session = await start_session(request.app["upstream"])
    async for record in request.app["log"].follow():  # expect: CAN102
        await session.post("/ingest", data=record)
    await session.close()
    return web.Response(text="ok")
