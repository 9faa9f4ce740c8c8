"""Windows on cleanup paths.

A value live since before an exception, awaited past in the handler or the
finally that the exception led to, is being cleaned up: interrupting that
takes the failure first and then a cancellation landing in the cleanup
(repeated cancellation, CAN302's shape), not a window of its own. A value
made on the cleanup path is a value like any other, and a return runs its
finally on the ordinary path, where the first cancellation can land.
"""

import asyncio
from typing import Any


class Cleanup:
    def __init__(self, pool: Any, log: Any) -> None:
        self._pool = pool
        self._log = log
        self._conns: list[Any] = []

    # Fine: the cleanup after a failure awaits before closing the stream
    # it had; only a second cancellation can interrupt it there.
    async def send_or_report(self, host: str) -> None:
        reader, writer = await asyncio.open_connection(host, 80)
        try:
            writer.write(b"PING\n")
            await writer.drain()
        except BaseException:
            await self._log.report("send failed")
            writer.close()
            raise
        self._conns.append(writer)

    # Buggy: the handler opens a new connection and awaits before keeping
    # it: a first cancellation can land there.
    async def send_with_fallback(self, host: str) -> None:
        try:
            await self._pool.send(b"PING\n")
        except ConnectionError:
            reader, writer = await asyncio.open_connection(host, 8080)
            writer.write(b"PING\n")
            await writer.drain()  # expect: CAN102
            self._conns.append(writer)

    # Buggy: the return runs the finally on the ordinary path; a cancel
    # at its first await skips the cancel() after it.
    async def fetch_with_watchdog(self, url: str) -> Any:
        watchdog = asyncio.create_task(self._pool.watch(url))
        try:
            return await self._pool.fetch(url)
        finally:
            await self._log.flush()  # expect: CAN102
            watchdog.cancel()

    # Fine: the same finally releases before it awaits.
    async def fetch_with_watchdog_first(self, url: str) -> Any:
        watchdog = asyncio.create_task(self._pool.watch(url))
        try:
            return await self._pool.fetch(url)
        finally:
            watchdog.cancel()
            await self._log.flush()
