"""A task that works on what the finally around it closes ends with it.

``task = ensure_future(self._pump(ws=feed))`` where the ``finally`` hands
``feed`` to a helper of the tree that disconnects it: cancelled at the wait,
the finally closes the feed and the pump ends on the closed connection, even
when the feed is not known here as a resource (a helper's result that self
keeps). Taking a value out of a list in the finally
(``self._events.remove(changed)``) closes nothing: a task waiting on that
event goes on waiting.
"""

import asyncio
from typing import Any, Optional


class FeedBase:
    async def _on_interruption(self, feed: Optional[Any] = None) -> None:
        feed and await feed.disconnect()


class TickerFeed(FeedBase):
    def __init__(self, hub: Any) -> None:
        self._hub = hub
        self._feed: Optional[Any] = None
        self._trades: Optional[Any] = None
        self._events: list = []

    async def _ticker_feed(self) -> Any:
        return await self._hub.feed_for("ticker")

    async def _pump(self, feed: Any) -> None:
        async for tick in feed:
            print(tick)

    async def follow(self) -> None:
        feed = None
        trades = None
        while True:
            try:
                feed = await self._ticker_feed()
                self._feed = feed
                trades = await self._hub.open_trades()
                self._trades = trades
                pump = asyncio.ensure_future(self._pump(feed=feed))
                trades_pump = asyncio.ensure_future(self._pump(feed=trades))
                done, pending = await asyncio.wait([pump, trades_pump], return_when=asyncio.FIRST_EXCEPTION)
                for t in pending:
                    t.cancel()
                for t in done:
                    t.result()
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(1.0)
            finally:
                self._feed = None
                await self._on_interruption(feed=feed)
                if trades is not None:
                    await trades.disconnect()

    async def refresh(self) -> Any:
        changed = asyncio.Event()
        self._events.append(changed)
        try:
            waiter = asyncio.create_task(changed.wait())
            fetch = asyncio.create_task(self._hub.fetch())
            await asyncio.wait([waiter, fetch], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
            for t in (waiter, fetch):
                t.cancel()
            return fetch.result()
        finally:
            self._events.remove(changed)
