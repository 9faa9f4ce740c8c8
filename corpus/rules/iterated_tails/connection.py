"""The task that iterates a stream of another module as its last step."""
import asyncio

from .stream import Stream


class Connection:
    def __init__(self, ws):
        self._stream = Stream(ws)
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._listen())

    def stop(self):
        self._task.cancel()

    async def _listen(self):
        async for msg in self._stream.messages():
            print(msg)
        print("listener stopped")

    async def collect(self):
        out = []
        async for msg in self._stream.updates():
            out.append(msg)
        return out
