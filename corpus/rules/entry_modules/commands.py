"""Command implementations that `console.py` hands to asyncio.run."""

import asyncio
from typing import Any


# Fine: it runs only in the runner's main task, awaited in place by
# handle_sync, the main another module hands to asyncio.run; the runner
# cancels what it leaves running when it ends.
async def sync_all(remotes: list, pull: Any) -> list:
    tasks = [asyncio.create_task(pull(r)) for r in remotes]
    done, _ = await asyncio.wait(tasks)
    return [t.result() for t in done]


async def handle_sync(args: Any) -> None:
    print(await sync_all(args.remotes, args.pull))


# Buggy: handle_report is also awaited under a timeout (dashboard.py).
async def report_all(remotes: list, probe: Any) -> list:
    tasks = [asyncio.create_task(probe(r)) for r in remotes]
    done, _ = await asyncio.wait(tasks)  # expect: CAN102
    return [t.result() for t in done]


async def handle_report(args: Any) -> None:
    print(await report_all(args.remotes, args.probe))
