"""Stopping a task kept under a key: `app[key].cancel()` then
`with suppress(CancelledError): await app[key]`.

The cancellation caught is the task's own, as in `t.cancel(); await t`.
The twin awaits the task under another key, which nothing cancelled: a
cancellation of the caller there is swallowed.
"""

import asyncio
import contextlib


class Service:
    def __init__(self, worker):
        self.worker = worker
        self.key = "worker"
        self.other = "monitor"

    async def start(self, app):
        app[self.key] = asyncio.create_task(self.worker.serve())
        app[self.other] = asyncio.create_task(self.worker.monitor())

    async def stop(self, app):
        app[self.key].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await app[self.key]

    async def stop_mixed(self, app):
        app[self.key].cancel()
        with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
            await app[self.other]
