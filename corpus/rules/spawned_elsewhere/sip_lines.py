"""The SIP line overrides `_listen`: the base's `handle` starts it as a
task. Its twin `_drain`, of the same shape, is awaited by `close` (the
cancellation it swallows is its caller's)."""

import asyncio

from .line_handlers import LineHandler


class SipLineHandler(LineHandler):
    # Fine: run by the task the base's handle starts; what follows the
    # loop is that task's own shutdown.
    async def _listen(self) -> None:
        while self.running:
            try:
                frame = await self.socket.recv()
                await self.socket.send(frame)
            except asyncio.CancelledError:
                break
        await self.socket.send(b"eos")

    async def close(self) -> None:
        await self._drain()

    # Buggy twin: awaited by close, it swallows close's caller's cancellation.
    async def _drain(self) -> None:
        while self.running:
            try:
                await self.socket.recv()
            except asyncio.CancelledError:  # expect: CAN401
                break
        await self.socket.send(b"eos")

