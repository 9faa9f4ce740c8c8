"""A private async generator iterated only as the last step of a task of the module's own.

`_frames` is iterated by `_pump`, the task `open()` starts and `close()`
cancels, outside any other loop: when the generator ends its iteration on
that cancellation, the `async for` ends, `_pump` finishes and the task
ends, as if its own frame had caught it. A generator iterated inside the
task's reconnect loop keeps the task going, and one a public method
iterates swallows its caller's cancel.
"""

import asyncio


class Feed:
    def __init__(self, socket):
        self._socket = socket
        self._task = None

    def open(self):
        self._task = asyncio.create_task(self._pump())

    def close(self):
        if self._task is not None:
            self._task.cancel()

    async def _frames(self):
        while True:
            try:
                frame = await self._socket.recv()
            except asyncio.CancelledError:
                break
            yield frame

    async def _pump(self):
        async for frame in self._frames():
            print(frame)
        print("feed closed")


class Relay:
    def __init__(self, socket):
        self._socket = socket
        self._task = None

    def open(self):
        self._task = asyncio.create_task(self._pump())

    def close(self):
        self._task.cancel()

    async def _frames(self):
        while True:
            try:
                frame = await self._socket.recv()
            except asyncio.CancelledError:  # expect: CAN401
                break
            yield frame

    # Iterated inside the task's reconnect loop: the task cannot be stopped.
    async def _pump(self):
        while True:
            async for frame in self._frames():
                print(frame)
            await self._socket.reconnect()


class Reader:
    def __init__(self, socket):
        self._socket = socket

    async def _lines(self):
        while True:
            try:
                line = await self._socket.readline()
            except asyncio.CancelledError:  # expect: CAN401
                return
            yield line

    # Iterated by a public coroutine its caller awaits: the caller's cancel.
    async def read_all(self):
        return [line async for line in self._lines()]
