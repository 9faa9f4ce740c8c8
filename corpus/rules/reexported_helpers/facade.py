import asyncio

from .groups import create_task


async def settle() -> None:
    await asyncio.sleep(0)
