"""Spawners a project names after what they do, imported from elsewhere.

`create_referenced_task(coro)` (keeps a reference so the task is not
collected), `sio.start_background_task(fn, *args)`, `spawn_task(coro)`,
`safe_ensure_future(coro)` (ensure_future behind an error-logging wrapper): by
their names they start a task of their own on what they are given, though
their bodies live in another module. A handler at the top of the coroutine
they start is that task's own end.
"""

import asyncio

from myapp.tasks import create_referenced_task, safe_ensure_future


class Discovery:
    def __init__(self, server):
        self._server = server
        self._connect_task = None

    def start(self):
        self._connect_task = create_referenced_task(self._connect_to_peers())

    def stop(self):
        if self._connect_task is not None:
            self._connect_task.cancel()

    async def _connect_to_peers(self):
        while True:
            try:
                await self._server.connect_one()
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                return None


class Pinger:
    def __init__(self, ws):
        self._ws = ws
        self._ping_task = None

    def start(self):
        self._ping_task = safe_ensure_future(self._ping_forever())

    def stop(self):
        if self._ping_task is not None:
            self._ping_task.cancel()

    async def _ping_forever(self):
        while True:
            try:
                await self._ws.send("ping")
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                break


class Events:
    def __init__(self, sio):
        self.sio = sio

    def on_packet(self, sid, data):
        self.sio.start_background_task(self._handle_event, sid, data)

    async def _handle_event(self, sid, data):
        try:
            await self.sio.dispatch(sid, data)
        except asyncio.CancelledError:
            pass

    # Buggy: the same handler awaited in the caller's task.
    async def handle_now(self, sid, data):
        await self._dispatch_inline(sid, data)

    async def _dispatch_inline(self, sid, data):
        try:
            await self.sio.dispatch(sid, data)
        except asyncio.CancelledError:  # expect: CAN401
            pass


class Tracker:
    # Fine: tornado's IOLoop runs the coroutine function it is handed as a
    # future of its own; its cancellation ends that future.
    async def _track(self, future) -> None:
        try:
            await future.result_async()
        except asyncio.CancelledError:
            return
        self.done.append(future)

    def track(self, future) -> None:
        self.loop.add_callback(self._track, future)

    # Buggy: awaited in place, the handler eats the caller's cancellation.
    async def _track_now(self, future) -> None:
        try:
            await future.result_async()
        except asyncio.CancelledError:  # expect: CAN401
            return
        self.done.append(future)

    async def track_now(self, future) -> None:
        await self._track_now(future)


class Engine:
    # Fine: tornado's IOLoop.run_sync runs the coroutine function it is
    # handed as the loop's root task; the handler ends that task.
    async def _main(self) -> None:
        try:
            await self.kernel.started
        except asyncio.CancelledError:
            pass

    def start(self) -> None:
        self.loop.run_sync(self._main)

    # Buggy: awaited in place by a caller, whose cancellation it eats.
    async def _wait_started(self) -> None:
        try:
            await self.kernel.started
        except asyncio.CancelledError:  # expect: CAN401
            pass

    async def restart(self) -> None:
        await self._wait_started()
