"""Event loops that a conversation object runs on an attribute of its own.

`Conversation` keeps `self.events = events or EventBus()` and starts
`self.events.run()` through its project's task helper; the bus's loop,
which ends quietly on cancellation, is the outermost frame of that task.
`Ticker.run`, the twin, is awaited in place by the conversation: the
cancellation it swallows is the conversation's.
"""
import asyncio


class EventBus:
    def __init__(self):
        self.queue = asyncio.Queue()
        self.active = False

    async def run(self):
        self.active = True
        while self.active:
            try:
                event = await self.queue.get()
            except asyncio.CancelledError:
                break
            print(event)


class Ticker:
    async def run(self):
        while True:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:  # expect: CAN401
                break
