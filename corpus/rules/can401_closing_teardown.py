"""A closing flag set right before the object's own teardown.

`close()` sets `self.closed = True` and then awaits `self.disconnect()`,
which (in the backends) cancels the processor task. The processor's
handler swallows the cancellation only where the flag is set: that is the
close it asked for. The twin's flag is set by a method that tears nothing
down afterwards (a pause), so the swallow it guards may eat the caller's
cancellation.
"""

import asyncio


class SocketClient:
    def __init__(self, queue):
        self.queue = queue
        self.closed = False
        self.paused = False

    async def disconnect(self):
        raise NotImplementedError

    async def close(self):
        self.closed = True
        await self.disconnect()

    def pause(self):
        self.paused = True

    async def process_messages(self):
        while not self.closed:
            try:
                await self.handle(await self.queue.get())
            except asyncio.CancelledError:
                if not self.closed:
                    raise

    async def process_until_paused(self):
        while not self.paused:
            try:
                await self.handle(await self.queue.get())
            except asyncio.CancelledError:  # expect: CAN401
                if not self.paused:
                    raise

    async def handle(self, message):
        print(message)
