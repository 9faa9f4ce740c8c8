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


def make_app(config: Any) -> web.Application:
    app = web.Application()
    app.router.add_get("/status", handle_status)
    app.add_routes([web.post("/mount/{dev}", handle_mount)])
    return app
