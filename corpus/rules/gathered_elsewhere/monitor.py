from .base import ReportClient


async def last_trade(venue: ReportClient, command):
    trades = await venue.fetch_trades(command)
    return trades[-1] if trades else None
