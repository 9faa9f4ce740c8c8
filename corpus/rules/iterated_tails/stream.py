"""A public async generator another module iterates as the end of its task.

`Stream.messages` ends its iteration quietly on cancellation. The only
code of the tree that iterates it is `Connection._listen` (connection.py),
the task `Connection.start()` starts and `stop()` cancels, outside any
loop there: the cancellation it ends on is that task's shutdown.
`Stream.updates`, the twin, is iterated by a coroutine callers await.
"""
import asyncio


class Stream:
    def __init__(self, ws):
        self._ws = ws

    async def messages(self):
        while True:
            try:
                msg = await self._ws.receive()
            except asyncio.CancelledError:
                return
            yield msg

    async def updates(self):
        while True:
            try:
                msg = await self._ws.receive()
            except asyncio.CancelledError:  # expect: CAN401
                return
            yield msg
