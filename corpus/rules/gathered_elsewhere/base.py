import asyncio


class ReportClient:
    async def fetch_orders(self, command):
        raise NotImplementedError

    async def fetch_fills(self, command):
        raise NotImplementedError

    async def fetch_trades(self, command):
        raise NotImplementedError

    async def mass_status(self, command):
        orders, fills, trades = await asyncio.gather(
            self.fetch_orders(command),
            self.fetch_fills(command),
            self.fetch_trades(command),
        )
        return orders, fills, trades
