"""A task of the object's own that tells its shutdown apart by a flag.

`close()` sets `self._closed` and then cancels the coordinator task. The
coordinator awaits another task (the receiver), whose own cancellation it
must absorb, and then tests `self._closed`: where the flag is set, the
cancellation was `close()`'s request and the task ends; where it is not,
this task was not cancelled, so what the handler caught was the receiver's.
"""

import asyncio


class Session:
    def __init__(self, conn):
        self._conn = conn
        self._closed = False
        self._receiver = None
        self._coordinator = None

    def start(self):
        self._receiver = asyncio.create_task(self._conn.receive_all())
        self._coordinator = asyncio.create_task(self._coordinate())

    async def _coordinate(self):
        while True:
            try:
                await self._receiver
            except (asyncio.CancelledError, Exception):
                pass
            if self._closed:
                return
            await asyncio.sleep(1)
            self._receiver = asyncio.create_task(self._conn.receive_all())

    async def close(self):
        if self._closed:
            return
        self._closed = True
        self._conn.mark_closing()
        if self._coordinator is not None:
            self._coordinator.cancel()


class Poller:
    """The same loop, but the flag is state: no method sets it before a cancel."""

    def __init__(self, conn):
        self._conn = conn
        self._paused = False
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._poll())

    def pause(self):
        self._paused = True

    def stop(self):
        self._task.cancel()

    async def _poll(self):
        while True:
            try:
                await self._conn.fetch()
            except asyncio.CancelledError:  # expect: CAN401
                pass
            if self._paused:
                return
            await asyncio.sleep(1)
