"""A base handler starts `self._listen()` as a task; a subclass in
another module (sip_lines.py) overrides `_listen`, and on its objects the
task runs the override, whose `except CancelledError: break` is that
task's own end. The base's own `_listen` is the outermost frame of the
task on base objects."""

import asyncio
from typing import Any


class LineHandler:
    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.listen_task: Any = None
        self.running = True

    async def handle(self) -> None:
        self.listen_task = asyncio.create_task(self._listen())
        await self.socket.wait_closed()
        self.listen_task.cancel()

    # Fine: the outermost frame of the listening task.
    async def _listen(self) -> None:
        while True:
            try:
                await self.socket.recv()
            except asyncio.CancelledError:
                break
