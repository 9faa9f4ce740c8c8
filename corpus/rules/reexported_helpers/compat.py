import asyncio

create_task = asyncio.ensure_future


async def yield_now() -> None:
    await asyncio.sleep(0)
