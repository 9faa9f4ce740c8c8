"""Correct shapes: handlers that catch cancellation, release, and re-raise.

No function in this file has a finding.
"""

import asyncio
from asyncio import CancelledError
from asyncio import CancelledError as Cancelled
from typing import Any


class Channels:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._lock = asyncio.Lock()
        self._chans: dict[str, Any] = {}
        self._readers: dict[str, asyncio.Task] = {}

    async def _pump(self, key: str) -> None:
        await asyncio.sleep(1)

    # Fine: `except BaseException` catches cancellation, releases, re-raises;
    # the lock hand-over is inside the protected try.
    async def open_base(self, key: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        reader = asyncio.create_task(self._pump(key))
        try:
            await ws.send_str("hello")
            async with self._lock:
                self._chans[key] = ws
                self._readers[key] = reader
        except BaseException:
            reader.cancel()
            await ws.close()
            raise
        return ws

    # Fine: a bare `except:` catches everything, and re-raises.
    async def open_bare(self, key: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await ws.send_str("hello")
        except:  # noqa: E722
            await ws.close()
            raise
        self._chans[key] = ws
        return ws

    # Fine: an explicit CancelledError handler releases and re-raises; the
    # separate Exception handler covers ordinary errors.
    async def open_cancel_aware(self, key: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await ws.send_str("hello")
        except asyncio.CancelledError:
            await ws.close()
            raise
        except Exception:
            await ws.close()
            raise
        self._chans[key] = ws
        return ws

    # Fine: a tuple that contains CancelledError.
    async def open_tuple(self, key: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await ws.send_str("hello")
        except (asyncio.CancelledError, Exception):
            await ws.close()
            raise
        self._chans[key] = ws
        return ws

    # Fine: the same tuple in the other order, with the exception bound.
    async def start_reader_tuple(self, key: str) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.sleep(0)
        except (Exception, asyncio.CancelledError) as exc:
            reader.cancel()
            raise exc
        self._readers[key] = reader

    # Fine: CancelledError imported by name from asyncio.
    async def start_reader_imported(self, key: str) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.sleep(0)
        except CancelledError:
            reader.cancel()
            raise
        except Exception:
            reader.cancel()
            raise
        self._readers[key] = reader

    # Fine: CancelledError imported under an alias.
    async def start_reader_alias(self, key: str) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.sleep(0)
        except Cancelled:
            reader.cancel()
            raise
        except Exception:
            reader.cancel()
            raise
        self._readers[key] = reader

    # Fine: the fully qualified asyncio.exceptions.CancelledError.
    async def start_reader_qualified(self, key: str) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.sleep(0)
        except asyncio.exceptions.CancelledError:
            reader.cancel()
            raise
        except Exception:
            reader.cancel()
            raise
        self._readers[key] = reader
