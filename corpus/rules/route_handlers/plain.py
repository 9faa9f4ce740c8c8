"""Routes of an aiohttp application that keeps the default."""

import asyncio
from typing import Any

from aiohttp import web


# Fine: only the route runs it, and aiohttp does not cancel it.
async def handle_mount(request: web.Request) -> web.Response:
    proc = await asyncio.create_subprocess_exec("mount", request.match_info["dev"])
    try:
        await proc.wait()
    except Exception:
        proc.kill()
        raise
    return web.Response(text="ok")


async def handle_status(request: web.Request) -> web.Response:
    return web.Response(text="up")


# Fine: registered through a local bound to the router's add_route.
async def handle_umount(request: web.Request) -> web.Response:
    proc = await asyncio.create_subprocess_exec("umount", request.match_info["dev"])
    try:
        await proc.wait()
    except Exception:
        proc.kill()
        raise
    return web.Response(text="ok")


def make_app(config: Any) -> web.Application:
    app = web.Application()
    app.router.add_get("/status", handle_status)
    app.add_routes([web.post("/mount/{dev}", handle_mount)])
    r = app.router.add_route
    r("POST", "/umount/{dev}", handle_umount)
    return app
