"""A test that makes its stand-in raise the cancellation it then catches.

`queue.get.side_effect = [event, CancelledError]` ends the listener loop the
test drives: the `except CancelledError: pass` around the call catches that
staged exception, not a cancellation of the test. A test that stages some
other error and still catches cancellation swallows a real one.
"""

import asyncio
from unittest.mock import AsyncMock


class ListenerTests:
    async def listener(self, queue):
        while True:
            event = await queue.get()
            self.events.append(event)

    # Fine: the mocked queue raises the cancellation after one event.
    async def test_stops_after_one_event(self):
        self.events = []
        queue = AsyncMock()
        queue.get.side_effect = ["event", asyncio.CancelledError]
        try:
            await self.listener(queue)
        except asyncio.CancelledError:
            pass
        assert self.events == ["event"]

    # Fine: the same, staged through the constructor's keyword.
    async def test_stops_at_once(self):
        self.events = []
        queue = AsyncMock()
        queue.get = AsyncMock(side_effect=asyncio.CancelledError())
        try:
            await self.listener(queue)
        except asyncio.CancelledError:
            pass
        assert self.events == []

    # Buggy: the stand-in raises another error; the handler can only catch a
    # cancellation of the test itself, and drops it.
    async def test_error_ends_loop(self):
        self.events = []
        queue = AsyncMock()
        queue.get.side_effect = ["event", RuntimeError("boom")]
        try:
            await self.listener(queue)
        except RuntimeError:
            pass
        except asyncio.CancelledError:  # expect: CAN401
            pass
