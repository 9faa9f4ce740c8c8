import asyncio

from .stats import TradeStats, Workspace


async def summarize(fills):
    stats = await asyncio.wait_for(TradeStats.create(fills), 5)
    return stats.count


async def open_workspace(api, name):
    ws = await asyncio.wait_for(Workspace.create(api, name), 5)  # expect: CAN201
    return ws
