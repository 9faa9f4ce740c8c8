"""The same daemon with aiohttp's handler cancellation turned on."""

import asyncio
import subprocess

from aiohttp import web


# Buggy: the runner cancels a handler whose client went away, and the
# child is left running.
async def handle_state(request: web.Request) -> web.Response:
    proc = await asyncio.create_subprocess_exec("systemctl", "is-active", "agent", stdout=subprocess.PIPE)
    out = await proc.stdout.read()  # expect: CAN102
    await proc.wait()
    return web.Response(text=out.decode())


async def init_app(app: web.Application) -> None:
    r = app.router.add_route
    r("GET", "/", handle_state)


async def serve(app: web.Application) -> web.AppRunner:
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    return runner
