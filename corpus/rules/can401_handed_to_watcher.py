"""The caught exception handed to an object the caller passed in.

A server schedules each request as `serve_watched(watcher)`, and the
coroutine reports how it ended through the watcher it was handed
(`watcher.err(exc)`, `watcher.done()`): the cancellation goes to the
watcher's owner, which decides, as with a future's `set_exception`. A
report (`log.error(exc)`) or a note on self hands nothing on.
"""

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)


def make_request_runner(inner: Any) -> Any:
    # Fine: the exception, cancellation included, goes to the watcher.
    async def serve_watched(watcher: Any) -> None:
        try:
            await inner(watcher.scope)
        except BaseException as exc:
            watcher.err(exc)
            return
        watcher.done()

    return serve_watched


class ReportingRunner:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.failures: list = []

    # Buggy twin: only logged; the caller's cancel is lost.
    async def serve_logged(self, watcher: Any) -> None:
        try:
            await self.inner(watcher.scope)
        except BaseException as exc:  # expect: CAN401
            log.error("request failed: %r", exc)
            self.failures.append(watcher.scope)
            return
        watcher.done()


async def drive(watcher: Any, inner: Any) -> None:
    await asyncio.sleep(0)
    await make_request_runner(inner)(watcher)
