"""Helpers that start a task and wait (their callers decide)."""

import asyncio
from typing import Any


# Fine: awaited only by the CLI's main coroutine (cli.py).
async def _watch_until_ready(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()
    ticker.cancel()


# Buggy twin: cli.py also awaits it under a timeout.
async def _watch_with_deadline(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()  # expect: CAN102
    ticker.cancel()


# Buggy twin: public in a module that runs no main of its own, so code
# outside the tree (a library's user) may await it in a task that goes on.
async def watch(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()  # expect: CAN102
    ticker.cancel()
