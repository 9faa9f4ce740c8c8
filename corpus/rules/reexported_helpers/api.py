import asyncio

from . import groups as groups_lib

create_task = groups_lib.create_task


async def pause() -> None:
    await asyncio.sleep(0)
