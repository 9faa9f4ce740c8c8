"""A command line entry point: asyncio.run of a main coroutine."""

import asyncio
import sys
from typing import Any

from .watchers import _watch_until_ready, _watch_with_deadline, watch


async def _main(probe: Any) -> int:
    await _watch_until_ready(probe)
    await _watch_with_deadline(probe)
    await watch(probe)
    await report(probe)
    return 0


# Fine: public, but in the module that runs the main.
async def report(probe: Any) -> None:
    ticker = asyncio.create_task(probe.tick_forever())
    await probe.ready.wait()
    ticker.cancel()


async def check(probe: Any) -> None:
    await asyncio.wait_for(_watch_with_deadline(probe), timeout=5)


def run(probe: Any) -> None:
    sys.exit(asyncio.run(_main(probe)))
