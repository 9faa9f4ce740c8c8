import asyncio

from aiohttp import web


# Fine: registered with the router below and called nowhere else.
async def handle_ws(request):
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    try:
        async for msg in ws:
            await ws.send_str(msg.data)
    except asyncio.CancelledError:
        print("client went away")
    return ws


# Buggy: registered too, but the status page awaits it under a timeout,
# whose cancellation it swallows, and goes on.
async def handle_info(request):
    try:
        info = await request.app["backend"].info()
    except asyncio.CancelledError:  # expect: CAN401
        info = {}
    return web.json_response(info)


async def status_page(request):
    resp = await asyncio.wait_for(handle_info(request), 5)
    return web.Response(text=resp.text + "\nok")


def setup(app):
    app.router.add_route("GET", "/ws", handle_ws)
    app.router.add_get("/info", handle_info)
    app.router.add_get("/status", status_page)
