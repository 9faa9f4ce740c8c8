import asyncio

from .events import EventBus, Ticker

_TASKS = set()


def create_logged_task(*args, **kwargs):
    task = asyncio.create_task(*args, **kwargs)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


class Conversation:
    def __init__(self, events=None, ticker=None):
        self.events = events or EventBus()
        self.ticker = ticker or Ticker()
        self.events_task = None

    def start(self):
        self.events_task = create_logged_task(self.events.run())

    async def tick(self):
        await self.ticker.run()

    def stop(self):
        if self.events_task is not None:
            self.events_task.cancel()
