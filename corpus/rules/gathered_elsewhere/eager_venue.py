import asyncio

from .base import ReportClient


class EagerVenue(ReportClient):
    def __init__(self, http):
        self._http = http

    # Buggy: also awaited in place by order_status below, where the
    # cancellation it turns into an empty list is its caller's.
    async def fetch_orders(self, command):
        try:
            return await self._http.get("/orders", params=command)
        except asyncio.CancelledError:  # expect: CAN401
            return []

    async def fetch_fills(self, command):
        return await self._http.get("/fills", params=command)

    async def order_status(self, command):
        orders = await self.fetch_orders(command)
        return orders[0] if orders else None
