"""Children a task group runs by reference: `gr.start_soon(self.fetch, q)`.

A task group bound by `async with anyio.create_task_group() as gr:` runs
each function handed to `gr.start_soon` as a task of its own; the loop that
ends quietly on cancellation is that child's shutdown, and the group
re-raises the cancellation in its host. The twin hands its worker to an
object that is not known to be a group: it may run the worker in the
caller's task, so the swallow stays reported.
"""

import asyncio
from typing import Any

import anyio


class Receiver:
    def __init__(self, source: Any) -> None:
        self._source = source

    async def listen(self, queue: asyncio.Queue) -> None:
        async with anyio.create_task_group() as gr:
            gr.start_soon(self.prefetch, queue)
            gr.start_soon(self.run, queue)

    # Fine: a child of the group in listen.
    async def prefetch(self, queue: asyncio.Queue) -> None:
        while True:
            try:
                item = await self._source.next()
            except (asyncio.CancelledError, StopAsyncIteration):
                break
            queue.put_nowait(item)
        queue.put_nowait(None)

    # Fine: a child of the group in listen.
    async def run(self, queue: asyncio.Queue) -> None:
        while True:
            try:
                item = await queue.get()
            except asyncio.CancelledError:
                break
            if item is None:
                break

    async def serve(self, pool: Any) -> None:
        pool.start_soon(self.drain)

    # Buggy twin: `pool` is a parameter, not a group this module made.
    async def drain(self) -> None:
        try:
            await self._source.flush_when_idle()
        except asyncio.CancelledError:  # expect: CAN401
            pass
