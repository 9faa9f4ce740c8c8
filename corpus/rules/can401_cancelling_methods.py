"""Awaiting a task that a method of the same class has just cancelled.

`self._finish()` cancels `self._resend` (and does other teardown); the
method then awaits `self._resend` under `except CancelledError: pass`: the
cancellation caught is the task's own, as in `t.cancel(); await t`, only
through a method of the class. So is a method of such an object another
function made (`q = Query(sock)`, `q._finish()`, then `await q._resend`).
The twins call a method that cancels some other task of the object, or
none.
"""

import asyncio


class Query:
    def __init__(self, sock):
        self.sock = sock
        self.answered = asyncio.Event()
        self._resend = None
        self._watch = None

    def _finish(self):
        self.answered.set()
        if self._resend:
            self._resend.cancel()

    def _stop_watch(self):
        if self._watch:
            self._watch.cancel()

    def _log_done(self):
        print("done", self.sock)

    def start(self):
        self._resend = asyncio.create_task(self._resend_loop())

    async def _resend_loop(self):
        while True:
            await asyncio.sleep(1)
            self.sock.send(b"query")

    async def ask(self, timeout):
        self._resend = asyncio.create_task(self._resend_loop())
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        finally:
            self._finish()
        try:
            await self._resend
        except asyncio.CancelledError:
            pass
        return self.sock.result()

    async def ask_watch_only(self, timeout):
        self._resend = asyncio.create_task(self._resend_loop())
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        finally:
            self._stop_watch()
        try:
            await self._resend
        except asyncio.CancelledError:  # expect: CAN401
            pass
        return self.sock.result()

    async def ask_logged(self, timeout):
        self._resend = asyncio.create_task(self._resend_loop())
        try:
            await asyncio.wait_for(self.answered.wait(), timeout)
        finally:
            self._log_done()
        try:
            await self._resend
        except asyncio.CancelledError:  # expect: CAN401
            pass
        return self.sock.result()


async def ask_with(sock, timeout):
    q = Query(sock)
    q.start()
    try:
        await asyncio.wait_for(q.answered.wait(), timeout)
    finally:
        q._finish()
        try:
            await q._resend
        except asyncio.CancelledError:
            pass
    return sock.result()


async def ask_with_watch_only(sock, timeout):
    q = Query(sock)
    q.start()
    try:
        await asyncio.wait_for(q.answered.wait(), timeout)
    finally:
        q._stop_watch()
        try:
            await q._resend
        except asyncio.CancelledError:  # expect: CAN401
            pass
    return sock.result()
