"""An aiohttp runner over an application with no startup hooks.

`AppRunner(app).setup()` suspends only in the application's startup hooks
(`app.on_startup`, the first halves of `app.cleanup_ctx`). An application
made in the function and given nothing but routes has none, so the setup
cannot deliver a cancellation: the runner is no window there (it holds no
socket before its site starts). Where the function adds a startup hook, the
setup runs it, and a cancellation there leaves what the hook made to a
runner nobody cleans up. Such a runner holds nothing until its site starts
(`web.TCPSite(runner, host, port).start()`, catalog site-start): a
cancelled bind leaves nothing of it behind. State kept on the application
(`app[token_key] = token`) adds no hook.
"""

import asyncio
from typing import Any

from aiohttp import web


async def health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


# Fine: routes only; the first window is the site's start, inside the try.
async def serve_health(port: int) -> None:
    app = web.Application()
    app.add_routes([web.get("/health", health)])
    app.router.add_get("/ready", health)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", port)
        await site.start()
    finally:
        await runner.cleanup()


async def open_pool(app: web.Application) -> None:
    app["pool"] = object()


# Buggy twin: a startup hook runs in setup, outside the try whose finally
# cleans the runner up.
async def serve_with_pool(port: int) -> None:
    app = web.Application()
    app.add_routes([web.get("/health", health)])
    app.on_startup.append(open_pool)
    runner = web.AppRunner(app)
    await runner.setup()  # expect: CAN102
    try:
        site = web.TCPSite(runner, "127.0.0.1", port)
        await site.start()
    finally:
        await runner.cleanup()


# Buggy twin: the application comes from the caller, hooks unknown (and
# the site's start is covered only for an OSError).
async def serve_given(app: Any, port: int) -> None:
    runner = web.AppRunner(app)
    await runner.setup()  # expect: CAN102
    site = web.TCPSite(runner, "127.0.0.1", port)
    try:
        await site.start()  # expect: CAN101
    except OSError:
        await runner.cleanup()
        raise


def build_app() -> web.Application:
    app = web.Application()
    app.on_startup.append(open_pool)
    return app


# Buggy twin: the application comes from a factory, which may add hooks
# (this one does).
async def serve_built(port: int) -> web.AppRunner:
    app = build_app()
    runner = web.AppRunner(app)
    await runner.setup()  # expect: CAN102
    site = web.TCPSite(runner, "127.0.0.1", port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


token_key = web.AppKey("token", str)


async def _ok(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def _warm_up(app: web.Application) -> None:
    await asyncio.sleep(0)


# Fine: the runner of an application with routes and state only holds
# nothing until its site starts; a cancelled bind leaves nothing behind,
# and from then on the finally owns it.
async def serve_health(host: str, port: int, token: str) -> None:
    app = web.Application()
    app[token_key] = token
    app.add_routes([web.get("/healthz", _ok)])
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


# Buggy twin: the application's startup hook has run in setup, so a
# cancelled bind leaves the runner's cleanup hooks unrun.
async def serve_with_hooks(host: str, port: int) -> None:
    app = web.Application()
    app.on_startup.append(_warm_up)
    app.add_routes([web.get("/healthz", _ok)])
    runner = web.AppRunner(app)
    await runner.setup()  # expect: CAN102
    site = web.TCPSite(runner, host, port)
    await site.start()
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
