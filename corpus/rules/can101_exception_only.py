"""CAN101: the cleanup exists, but only in handlers that cancellation bypasses.

asyncio.CancelledError derives from BaseException (since Python 3.8), so
``except Exception``, ``except TimeoutError`` and ``except OSError`` never run
when the task is cancelled inside the ``try``.
"""

import asyncio
from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class Entry:
    ws: Any
    reader: Optional[asyncio.Task] = None

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        await self.ws.close()


class Relay:
    def __init__(self, session: Any, api: Any) -> None:
        self._session = session
        self._api = api
        self._lock = asyncio.Lock()
        self._readers: dict[str, asyncio.Task] = {}
        self._entries: dict[str, Entry] = {}
        self._leases: dict[str, Any] = {}

    async def _pump(self, key: str) -> None:
        await asyncio.sleep(1)

    # Buggy: the reader task is cancelled only under `except Exception`; a
    # cancellation during the hello leaves it running and unregistered.
    async def start_reader(self, key: str, ws: Any) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await ws.send_str("hello")  # expect: CAN101
            self._readers[key] = reader
        except Exception:
            reader.cancel()
            raise

    # Buggy: a tuple of ordinary exceptions still misses cancellation.
    async def start_reader_tuple(self, key: str, ws: Any) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.sleep(0)  # expect: CAN101
            await ws.send_str("ready")
            self._readers[key] = reader
        except (TimeoutError, OSError):
            reader.cancel()
            raise

    # Buggy: the classic pair of handlers, asyncio.TimeoutError then Exception;
    # neither is CancelledError. The window checkpoint inside the try is the
    # wait_for line (one finding per resource, at the first checkpoint).
    async def connect_with_hello(self, key: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        reader = asyncio.create_task(self._pump(key))
        try:
            await asyncio.wait_for(ws.send_json({"op": "hello"}), timeout=5)  # expect: CAN101
            async with self._lock:
                self._entries[key] = Entry(ws=ws, reader=reader)
        except asyncio.TimeoutError:
            reader.cancel()
            await ws.close()
            raise
        except Exception:
            reader.cancel()
            await ws.close()
            raise
        return ws

    # Buggy: the value is wrapped into an entry object; the handler releases
    # the entry (and with it the ws), but only for ordinary exceptions.
    async def attach_entry(self, key: str, url: str) -> Entry:
        ws = await self._session.ws_connect(url)
        entry = Entry(ws=ws)
        try:
            await asyncio.wait_for(ws.send_json({"op": "subscribe", "key": key}), timeout=5)  # expect: CAN101
            self._entries[key] = entry
        except Exception:
            await entry.close()
            raise
        return entry

    # Buggy: `reserve_gpu` is a name no catalog knows; the function itself
    # releases the lease on its error path, so it owns it from creation
    # (release-implied ownership) -- and that error path misses cancellation.
    async def reserve(self, region: str) -> Any:
        lease = await self._api.reserve_gpu(region=region)
        try:
            await lease.wait_ready()  # expect: CAN101
        except Exception:
            await self._api.release_gpu(lease.id)
            raise
        self._leases[lease.id] = lease
        return lease

    # Buggy twice: the connect step is covered by `except OSError` only
    # (CAN101), and the later lock hand-over has no handler at all (CAN102).
    async def attach_then_register(self, key: str) -> None:
        reader = asyncio.create_task(self._pump(key))
        try:
            await self._api.ping()  # expect: CAN101
        except OSError:
            reader.cancel()
            raise
        async with self._lock:  # expect: CAN102
            self._readers[key] = reader
