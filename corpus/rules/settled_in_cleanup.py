"""A task awaited to its end in cleanup is settled.

`stop = ensure_future(self._stop())`, shielded from the caller, and on
cancellation the handler waits for it to finish (`await stop`, under
`contextlib.suppress(CancelledError)` so a repeated cancellation does not
cut the wait short) before re-raising: the handler settles the task, so
the shielded wait is no window for it. (A shielded stop task left to
finish by itself is no window either: the shield says so; see
shielded_teardown.py.) A handler that only logs while a shielded task that
is no teardown goes on under a timed wait leaves that task running with
nobody to observe it.
"""

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)


class Server:
    async def _stop(self) -> None: ...

    async def _serve(self) -> None: ...

    # Fine: the handler waits for the stop task before re-raising.
    async def aclose(self) -> None:
        stop = asyncio.ensure_future(self._stop())
        try:
            await asyncio.shield(stop)
        except asyncio.CancelledError:
            if not stop.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await stop
            raise

    # Buggy: the shield serves the timeout, and the handler re-raises and
    # leaves the serving task behind.
    async def serve_quickly(self) -> None:
        serving = asyncio.ensure_future(self._serve())
        try:
            await asyncio.wait_for(asyncio.shield(serving), 30)  # expect: CAN102
        except asyncio.CancelledError:
            log.warning("close interrupted")
            raise
