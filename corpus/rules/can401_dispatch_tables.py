"""Tasks whose coroutine function a dispatch table picks.

`handle_subscribe` starts the push loop its table names for the kind
(`self._loop_for(kind)`, a method of the class that only returns
`{...}[kind]`; or a table bound in place), and cancels the old task when
a subscription is replaced: each loop of the table is the outermost frame
of that task, and the cancellation it ends on is the task's shutdown.
`_poll_loop`, which the table does not name, is also awaited in place by
`refresh()`: the cancellation it swallows there is the caller's.
"""

import asyncio


class PushManager:
    def __init__(self, source):
        self._source = source
        self._tasks = {}

    def _loop_for(self, kind):
        """The push loop for a kind of subscription."""
        return {
            "prices": self._prices_loop,
            "orders": self._orders_loop,
        }[kind]

    def subscribe(self, kind, ws):
        old = self._tasks.pop(kind, None)
        if old is not None:
            old.cancel()
        push = self._loop_for(kind)
        self._tasks[kind] = asyncio.create_task(push(ws))

    def subscribe_local(self, kind, ws):
        table = {"status": self._status_loop}
        push = table.get(kind)
        self._tasks[kind] = asyncio.create_task(push(ws))

    def unsubscribe(self, kind):
        task = self._tasks.pop(kind, None)
        if task is not None:
            task.cancel()

    async def _prices_loop(self, ws):
        try:
            while True:
                await ws.send(await self._source.prices())
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass

    async def _orders_loop(self, ws):
        try:
            while True:
                await ws.send(await self._source.orders())
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass

    async def _status_loop(self, ws):
        try:
            while True:
                await ws.send(await self._source.status())
                await asyncio.sleep(5)
        except asyncio.CancelledError:
            pass

    async def _poll_loop(self, ws):
        try:
            while True:
                await ws.send(await self._source.poll())
        except asyncio.CancelledError:  # expect: CAN401
            pass

    async def refresh(self, ws):
        await self._poll_loop(ws)
