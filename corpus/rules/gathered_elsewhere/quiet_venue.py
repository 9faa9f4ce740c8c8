import asyncio

from .base import ReportClient


class QuietVenue(ReportClient):
    def __init__(self, http):
        self._http = http

    # Fine: run only as one of gather's tasks (base.mass_status).
    async def fetch_orders(self, command):
        try:
            return await self._http.get("/orders", params=command)
        except asyncio.CancelledError:
            return []

    async def fetch_fills(self, command):
        try:
            return await self._http.get("/fills", params=command)
        except asyncio.CancelledError:
            return []

    # Buggy: gathered by the base, but also awaited in place by the monitor
    # (monitor.py), in whose caller's task the cancellation is swallowed.
    async def fetch_trades(self, command):
        try:
            return await self._http.get("/trades", params=command)
        except asyncio.CancelledError:  # expect: CAN401
            return []


class QuietFuturesVenue(QuietVenue):
    # Fine: an override that awaits its base's implementation in place is
    # still run only as gather's task; `super()` is no other object.
    async def fetch_orders(self, command):
        orders = await super().fetch_orders(command)
        try:
            return orders + await self._http.get("/futures/orders", params=command)
        except asyncio.CancelledError:
            return orders
