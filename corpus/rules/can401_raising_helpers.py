"""A handler that gives the caught exception to a helper that raises it.

`except BaseException as exc: await self._on_error(exc, stream)` where the
helper, defined in the tree (a method, a static method or a function),
ends in `raise` (re-raising what its caller is handling) or `raise exc`
for a cancellation: the helper decides the cancellation's fate and raises
it, so the handler does not swallow it. A helper that only logs does not.
"""

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)


async def _raise_unless_error(exc: BaseException) -> None:
    log.warning("failed: %r", exc)
    if not isinstance(exc, Exception):
        raise exc


class Listener:
    @staticmethod
    async def handle_error(exc: BaseException, stream: Any) -> None:
        await stream.aclose()
        if not isinstance(exc, Exception) or isinstance(exc, asyncio.CancelledError):
            raise

    async def note_error(self, exc: BaseException) -> None:
        log.warning("failed: %r", exc)

    # Fine: the static helper re-raises a cancellation.
    async def handshake(self, stream: Any) -> Any:
        try:
            return await stream.handshake()
        except BaseException as exc:
            await self.handle_error(exc, stream)
        return None

    # Fine: a module helper raises the exception it is given.
    async def greet(self, stream: Any) -> None:
        try:
            await stream.send(b"hello")
        except BaseException as exc:
            await _raise_unless_error(exc)

    # Buggy: the helper only logs.
    async def greet_quietly(self, stream: Any) -> None:
        try:
            await stream.send(b"hello")
        except BaseException as exc:  # expect: CAN401
            await self.note_error(exc)


class Stream:
    # Fine: a hand-written `async with`: the exception goes to the context
    # manager's __aexit__, which decides; it is re-raised unless handled.
    async def call(self, opener: Any) -> Any:
        ctx = opener()
        stream = await ctx.__aenter__()
        try:
            return await stream.recv()
        except BaseException as exc:
            if not await ctx.__aexit__(type(exc), exc, exc.__traceback__):
                raise
        return None

    # Buggy: the exception is only logged before the context is left.
    async def call_quietly(self, opener: Any) -> Any:
        ctx = opener()
        stream = await ctx.__aenter__()
        try:
            return await stream.recv()
        except BaseException as exc:  # expect: CAN401
            log.warning("failed: %r", exc)
            await ctx.__aexit__(None, None, None)
        return None
