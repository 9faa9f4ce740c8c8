"""A command line entry point: asyncio.run of a main coroutine."""

import asyncio
import sys
from typing import Any

from .watchers import _watch_imported, watch


# Fine: awaited only by the main coroutine of this module.
async def _watch_until_ready(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()
    ticker.cancel()


# Buggy twin: also awaited under a timeout (check), whose expiry cancels
# it while the program goes on.
async def _watch_with_deadline(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()  # expect: CAN102
    ticker.cancel()


async def _main(probe: Any) -> int:
    await _watch_until_ready(probe)
    await _watch_with_deadline(probe)
    await _watch_imported(probe)
    await watch(probe)
    return 0


async def check(probe: Any) -> None:
    await asyncio.wait_for(_watch_with_deadline(probe), timeout=5)


def run(probe: Any) -> None:
    sys.exit(asyncio.run(_main(probe)))
