"""Task groups whose `spawn` starts a task (aiorpcx's and curio's).

`await self.group.spawn(self._peer_session(addr))` starts the coroutine as a
task of the group: a handler at the top of that coroutine is the end of the
group's own task, which the group cancels when it closes. The same coroutine
awaited in the caller's own task swallows the caller's cancellation.
"""

import asyncio


class PeerLink:
    def __init__(self, group, transport):
        self.group = group
        self.transport = transport

    async def open(self, addr):
        await self.group.spawn(self._peer_session(addr))

    async def _peer_session(self, addr):
        try:
            await self.transport.exchange(addr)
        except asyncio.CancelledError:
            self.transport.log("peer session stopped")


class InlinePeer:
    def __init__(self, transport):
        self.transport = transport

    # Buggy: the session runs in the caller's task, not in a group's.
    async def open(self, addr):
        await self._inline_session(addr)

    async def _inline_session(self, addr):
        try:
            await self.transport.exchange(addr)
        except asyncio.CancelledError:  # expect: CAN401
            self.transport.log("peer session stopped")
