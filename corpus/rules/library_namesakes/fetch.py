"""Serving with the library's runner, and the package's record."""

from typing import Any

from aiohttp import web

from . import records


# Buggy: the library's runner is unowned across its setup, which runs the
# caller's application's startup hooks.
async def serve_app(app: Any, port: int) -> None:
    runner = web.AppRunner(app)
    await runner.setup()  # expect: CAN102
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
    finally:
        await runner.cleanup()


# Fine: the package's record of the same name owns nothing.
async def prepare_record(name: str) -> Any:
    record = records.AppRunner(name, 3)
    await record.setup()
    return record
