"""A subclass that starts its base's reconnect loop as a task, from a
synchronous method (this module has no coroutine of its own)."""

import asyncio

from . import links


class CloudUplink(links.Uplink):
    def start(self) -> None:
        self.task = asyncio.create_task(self.connect())
