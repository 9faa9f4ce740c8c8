"""Helpers that start a task and wait (their callers decide)."""

import asyncio
from typing import Any


# Buggy twin: public in a module that runs no main of its own, so code
# outside the tree (a library's user) may await it in a task that goes on.
async def watch(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()  # expect: CAN102
    ticker.cancel()


# Buggy twin: private, but awaited from another module (cli.py), which a
# scan of this module alone does not see: only a module's own calls count.
async def _watch_imported(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()  # expect: CAN102
    ticker.cancel()
