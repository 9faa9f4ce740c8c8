"""An override of `_listen` that its own module also awaits directly
(`await line._listen()` in probe): there it runs in the caller's task, so
the base's task start does not make its handler the task's own end."""

import asyncio

from .line_handlers import LineHandler


class ProbeLineHandler(LineHandler):
    # Buggy twin: this module also awaits the override directly
    # (`await line._listen()` in probe), where it runs in the caller's task.
    async def _listen(self) -> None:
        while self.running:
            try:
                await self.socket.recv()
            except asyncio.CancelledError:  # expect: CAN401
                break
        await self.socket.send(b"eos")


async def probe(line: ProbeLineHandler) -> None:
    await line._listen()
