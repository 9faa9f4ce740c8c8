"""Maintenance jobs, a module `console.py` imports whole (`from . import
jobs`) and whose coroutines it hands to asyncio.run as `jobs.NAME(...)`."""

import asyncio
from typing import Any


# Fine: it runs only in the runner's main task, awaited in place by
# handle_prune, which console.py runs as `asyncio.run(jobs.handle_prune())`.
async def prune_all(stores: list, prune: Any) -> int:
    workers = [asyncio.create_task(prune(s)) for s in stores]
    done, _ = await asyncio.wait(workers)
    return sum(w.result() for w in done)


async def handle_prune(args: Any) -> None:
    print(await prune_all(args.stores, args.prune))


# Buggy twin: handle_vacuum is also awaited under a timeout (dashboard.py),
# whose expiry leaves the workers running while the dashboard goes on.
async def vacuum_all(stores: list, vacuum: Any) -> int:
    workers = [asyncio.create_task(vacuum(s)) for s in stores]
    done, _ = await asyncio.wait(workers)  # expect: CAN102
    return sum(w.result() for w in done)


async def handle_vacuum(args: Any) -> None:
    print(await vacuum_all(args.stores, args.vacuum))
