"""Return annotations with parameters: `list[float]`, `Collection[float]`.

A helper named like a maker (`spawn_daemons`, `create_*`) whose annotation
says it returns a container of plain data (`-> Collection[float]`,
`-> dict[str, int]`, `-> Optional[list[str]]`) hands back no resource,
however its name sounds. One annotated to return a process does.
"""

import asyncio
from collections.abc import Collection
from typing import Optional


async def spawn_daemons(handlers, registry) -> Collection[float]:
    delays = []
    for handler in handlers:
        registry[handler] = asyncio.create_task(handler())
        delays.append(0.0)
    await asyncio.sleep(0)
    return delays


async def create_labels(names) -> Optional[dict[str, int]]:
    await asyncio.sleep(0)
    return {name: i for i, name in enumerate(names)}


async def spawn_worker(argv) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(*argv)


# Fine: what the helpers hand back is plain data.
async def process_cause(handlers, registry, names, settings):
    spawning_delays = await spawn_daemons(handlers, registry)
    labels = await create_labels(names)
    await settings.refresh()
    return list(spawning_delays), labels


# Buggy: the worker process waits for the refresh with no owner.
async def start_worker(argv, settings, workers):
    proc = await spawn_worker(argv)
    await settings.refresh()  # expect: CAN102
    workers.append(proc)
