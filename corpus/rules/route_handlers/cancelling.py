"""The same route in an application that cancels handlers on disconnect."""

import asyncio
from typing import Any

from aiohttp import web


# Buggy: a client that goes away cancels the handler at the wait.
async def handle_mount(request: web.Request) -> web.Response:
    proc = await asyncio.create_subprocess_exec("mount", request.match_info["dev"])
    try:
        await proc.wait()  # expect: CAN101
    except Exception:
        proc.kill()
        raise
    return web.Response(text="ok")


async def serve(config: Any) -> None:
    app = web.Application()
    app.add_routes([web.post("/mount/{dev}", handle_mount)])
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
