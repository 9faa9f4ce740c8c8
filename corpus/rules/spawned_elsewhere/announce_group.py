import asyncio
from collections.abc import Iterable

from .announcers import Announcer, Beacon


async def start_all(announcers: Iterable[Announcer]) -> None:
    async with asyncio.TaskGroup() as tg:
        for announcer in announcers:
            tg.create_task(announcer.run())


def start_one(beacon: Beacon) -> asyncio.Task:
    return asyncio.get_running_loop().create_task(beacon.run())


def start_untyped(forwarder) -> asyncio.Task:
    return asyncio.get_running_loop().create_task(forwarder.run())
