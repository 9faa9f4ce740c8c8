"""A private helper that runs as the last step of a task of the module's own.

`_consume` is awaited only by `_run`, the task `connect()` starts and
`disconnect()` cancels, outside any loop: when the helper ends quietly on
that cancellation, `_run` finishes its teardown and the task ends, as if
its own frame had caught it. A helper awaited inside a task's loop keeps
the task going; one awaited by a public method swallows its caller's cancel.
"""

import asyncio


class Client:
    def __init__(self, transport):
        self._transport = transport
        self._task = None

    def connect(self):
        self._task = asyncio.create_task(self._run())

    def disconnect(self):
        if self._task is not None:
            self._task.cancel()

    async def _consume(self, origin):
        try:
            peer = await origin.announced()
        except asyncio.CancelledError:
            return
        await peer.forward()

    async def _run(self):
        try:
            async with self._transport.session() as origin:
                await self._consume(origin)
        finally:
            await self._transport.release()


class Poller:
    def __init__(self, source):
        self._source = source
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._loop())

    def stop(self):
        self._task.cancel()

    async def _poll_once(self):
        try:
            return await self._source.poll()
        except asyncio.CancelledError:  # expect: CAN401
            return None

    # The helper runs inside the task's loop: the task cannot be stopped.
    async def _loop(self):
        while True:
            item = await self._poll_once()
            if item is not None:
                await self._source.ack(item)


class Reader:
    def __init__(self, stream):
        self._stream = stream

    async def _read_frame(self):
        try:
            return await self._stream.read()
        except asyncio.CancelledError:  # expect: CAN401
            return b""

    # A public method awaits the helper: its caller's cancel is lost.
    async def read(self):
        return await self._read_frame()


class Connection:
    def __init__(self, queue, api):
        self._queue = queue
        self._api = api
        self._tasks = {}

    # Fine: the local wrapper runs, under a deadline, as the tail of a task
    # the connection starts for each message.
    async def _api_call(self, message):
        async def wrapped():
            try:
                return await self._api.handle(message)
            except asyncio.CancelledError:
                return None

        response = await asyncio.wait_for(wrapped(), timeout=600)
        if response is not None:
            await self._api.reply(response)

    async def incoming(self):
        while True:
            message = await self._queue.get()
            self._tasks[id(message)] = asyncio.create_task(self._api_call(message))
