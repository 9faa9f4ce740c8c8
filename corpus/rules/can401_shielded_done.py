"""A handler that goes on only where the task it shielded is done.

`await asyncio.shield(attempt)` raises this task's cancellation while the
attempt runs on; the handler re-raises whenever the attempt is still
running (`if not attempt.done(): ...; raise`), so it goes on only when the
attempt itself ended cancelled: that cancellation was the attempt's, and
the next transport is tried. Without the shield, this task's cancellation
cancels the awaited task too, so finding it done tells nothing; and a
handler that returns before the test drops this task's cancellation.
"""

import asyncio


class Connector:
    def __init__(self, transports):
        self.transports = transports
        self.last_error = None

    # Fine: goes on only when the shielded attempt is done.
    async def connect(self):
        for transport in self.transports:
            attempt = asyncio.create_task(transport.open())
            try:
                await asyncio.shield(attempt)
                return transport
            except asyncio.CancelledError:
                if not attempt.done():
                    attempt.cancel()
                    raise
                self.last_error = ConnectionError(f"{transport} was cancelled")
        raise ConnectionError("no transport") from self.last_error

    # Buggy: no shield, so the attempt is done after this task's own
    # cancellation as well.
    async def connect_unshielded(self):
        for transport in self.transports:
            attempt = asyncio.create_task(transport.open())
            try:
                await attempt
                return transport
            except asyncio.CancelledError:  # expect: CAN401
                if not attempt.done():
                    raise
                self.last_error = ConnectionError(f"{transport} was cancelled")
        raise ConnectionError("no transport") from self.last_error

    # Buggy: returns before it looks at the attempt.
    async def connect_first(self):
        attempt = asyncio.create_task(self.transports[0].open())
        try:
            await asyncio.shield(attempt)
        except asyncio.CancelledError:  # expect: CAN401
            return None
        return attempt.result()
