"""A watcher daemon whose routes are all added through a local bound to
the router's add_route: no registration is called by its own name."""

import asyncio
import subprocess

from aiohttp import web


# Fine: only the route runs it, and aiohttp does not cancel it when the
# client goes away.
async def handle_state(request: web.Request) -> web.Response:
    proc = await asyncio.create_subprocess_exec("systemctl", "is-active", "agent", stdout=subprocess.PIPE)
    out = await proc.stdout.read()
    await proc.wait()
    return web.Response(text=out.decode())


async def init_app(app: web.Application) -> None:
    r = app.router.add_route
    r("GET", "/", handle_state)
