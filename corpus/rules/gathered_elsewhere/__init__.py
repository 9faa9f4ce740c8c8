"""Coroutines another module hands to `asyncio.gather`.

`ReportClient.mass_status` gathers `self.fetch_orders(...)` and
`self.fetch_fills(...)`, stubs of the base that the venue modules
implement. Each runs as a task of gather's: when the gatherer is
cancelled, gather cancels the children and raises the cancellation to the
gatherer whatever a child does with its own, so a child's handler that
turns its cancellation into an empty report swallows nothing anyone
needs (`QuietVenue`). The twin, `EagerVenue.fetch_orders`, is also awaited
directly by its own module (`order_status`): there it runs in its
caller's task, and the cancellation it swallows is that caller's; and
`QuietVenue.fetch_trades`, gathered by the base too, is also awaited in
place by another module (`monitor.last_trade`), on whatever venue it is
handed.
"""
