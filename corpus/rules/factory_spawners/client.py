"""A subclass, in another module, starting its own task through the
wrapper its base defines (`self._start_task(self._keepalive)`). A method it
hands to a base method that only stores it runs wherever that is called, and
its swallow is reported."""

import asyncio

from .base import Connection


class Client(Connection):
    def __init__(self) -> None:
        super().__init__()
        self._keepalive_task = None
        self._hooks = []

    def start(self) -> None:
        self.open()
        self._keepalive_task = self._start_task(self._keepalive)
        self.add_hook(self._on_close)

    def add_hook(self, hook) -> None:
        self._hooks.append(hook)

    # Fine: the task the base's wrapper starts, cancelled by close().
    async def _keepalive(self) -> None:
        try:
            while True:
                await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass

    # Buggy: add_hook only keeps it; whoever awaits it later loses the
    # cancellation.
    async def _on_close(self) -> None:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # expect: CAN401
            pass
