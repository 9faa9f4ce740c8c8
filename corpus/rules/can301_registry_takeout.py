"""CAN301: entries taken out of a registry, then released across checkpoints
that a cancellation can interrupt.

Once ``pop`` / ``del`` / ``clear`` ran, the registry can no longer find the
entry; if the teardown is cancelled half-way, nobody finishes it.
"""

import asyncio
from dataclasses import dataclass
from typing import Any


@dataclass
class Entry:
    proc: Any
    reader: asyncio.Task

    def close(self) -> None:
        self.reader.cancel()
        self.proc.kill()


class ConnectionTable:
    def __init__(self, events: Any) -> None:
        self._events = events
        self._conns: dict[str, Any] = {}
        self._entries: dict[str, Entry] = {}
        self._reg: dict[str, Any] = {}
        self._by_key: dict[str, Any] = {}

    # Buggy: popped, then flushed; a cancellation during the flush skips the
    # close and the connection is unreachable.
    async def evict(self, key: str) -> None:
        conn = self._conns.pop(key)
        await conn.flush()  # expect: CAN301
        conn.close()

    # Buggy: the entry leaves the registry before its process has exited.
    async def reap(self, key: str) -> int | None:
        entry = self._entries.pop(key, None)
        if entry is None:
            return None
        code = await entry.proc.wait()  # expect: CAN301
        entry.close()
        return code

    # Buggy (loop shape): the registry is emptied first; cancelling the await
    # of the first aclose abandons every entry after it.
    async def close_all(self) -> None:
        items = list(self._reg.values())
        self._reg.clear()
        for it in items:
            await it.aclose()  # expect: CAN301

    # Buggy: read, `del`, then an await before the release.
    async def drop(self, key: str) -> None:
        conn = self._by_key[key]
        del self._by_key[key]
        await conn.drain()  # expect: CAN301
        conn.close()

    # Fine: the release is synchronous and happens before the checkpoint.
    async def evict_quickly(self, key: str) -> None:
        conn = self._conns.pop(key)
        conn.close()
        await self._events.put(("evicted", key))

    # Fine: the only checkpoint is the shielded release itself.
    async def evict_shielded(self, key: str) -> None:
        conn = self._conns.pop(key)
        await asyncio.shield(conn.aclose())

    # Fine: the teardown loop runs inside a shielded task.
    async def close_all_shielded(self) -> None:
        items = list(self._reg.values())
        self._reg.clear()
        await asyncio.shield(self._close_items(items))

    async def _close_items(self, items: list[Any]) -> None:
        for it in items:
            await it.aclose()

    # Fine: the flush is covered by `finally`, whose release is shielded.
    async def evict_with_finally(self, key: str) -> None:
        conn = self._conns.pop(key)
        try:
            await conn.flush()
        finally:
            await asyncio.shield(conn.aclose())

    # Fine: teardown first, take-out last (nothing is unowned across the
    # awaits: the registry still holds the entry).
    async def reap_then_forget(self, key: str) -> None:
        entry = self._entries.get(key)
        if entry is None:
            return
        entry.proc.terminate()
        await entry.proc.wait()
        entry.reader.cancel()
        del self._entries[key]

    # Buggy: a teardown in steps; cancelled during the websocket close, the
    # process is never killed (the entry already left the registry).
    async def close_in_steps(self, key: str) -> None:
        entry = self._entries.pop(key)
        await entry.ws.close()  # expect: CAN301
        entry.proc.kill()

    # Fine: the synchronous step releases everything the awaited one needs;
    # the only await left is the single, final step.
    async def kill_then_reap(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry:
            entry.proc.kill()
            await entry.proc.wait()


_WARM: list[Entry] = []


class Runtime:
    def __init__(self, events: Any) -> None:
        self._events = events
        self._proc: Any = None
        self._reader: "asyncio.Task | None" = None

    # Fine: the warm entry taken from the pool is unpacked into this
    # runtime, which owns its process and reader from then on.
    async def adopt_warm(self) -> None:
        entry = _WARM.pop(0)
        self._proc = entry.proc
        self._reader = entry.reader
        await self._events.publish("adopted")
        if self._proc is None:
            entry.close()

    # Buggy twin: nothing takes the entry over before the publish, and it is
    # closed only after it.
    async def peek_warm(self) -> Any:
        entry = _WARM.pop(0)
        await self._events.publish("peeked")  # expect: CAN301
        entry.close()
        return entry


class StreamTable:
    def __init__(self) -> None:
        self._streams: dict[str, Any] = {}

    async def _close_one(self, key: str) -> None:
        stream = self._streams.pop(key, None)
        if stream is not None:
            stream.close()

    # Fine: the keys name the entries, which each stay registered until
    # _close_one takes them out and closes them; the keys hold nothing.
    async def close_all(self, log: Any) -> None:
        keys = list(self._streams.keys())
        for key in keys:
            await self._close_one(key)
        self._streams.clear()
        await log.flush()

    # Buggy twin: the values are taken out with the clear and closed only
    # after the flush.
    async def close_all_late(self, log: Any) -> None:
        streams = list(self._streams.values())
        self._streams.clear()
        await log.flush()  # expect: CAN301
        for s in streams:
            s.close()


def log_warning(msg: str) -> None:
    print(msg)


class Crawler:
    def __init__(self, fetch: Any) -> None:
        self._fetch = fetch
        self._todo: list[str] = []
        self._links: dict[str, Any] = {}

    # Fine: the work list holds URL strings; a module helper that only logs
    # one in a handler cleans nothing up, so nothing taken out is a resource.
    async def crawl(self, start: str) -> dict[str, str]:
        self._todo = [start]
        found: dict[str, str] = {}
        while self._todo:
            url = self._todo.pop(0)
            try:
                found[url] = await self._fetch(url)
            except OSError:
                log_warning(f"failed: {url}")
        await self._fetch("done")
        return found

    # Buggy twin: the entries are links, which the handler closes, so they
    # are resources; the one taken out is unowned across the fetch.
    async def drain_links(self, key: str) -> None:
        link = self._links.pop(key)
        try:
            await self._fetch(key)  # expect: CAN301
        except OSError:
            link.close()
            raise
        link.close()


class Relay:
    def __init__(self, sink: Any) -> None:
        self._sink = sink
        self._items: list[Any] = []
        self._workers: list[Any] = []

    # Fine: what is taken out is an end marker or an exception, raised after
    # the close; making StopAsyncIteration from it releases nothing.
    async def next_item(self) -> Any:
        item, is_end = self._items.pop(0)
        if is_end:
            await self._sink.close()
            raise StopAsyncIteration(*item.args)
        return item

    # Buggy twin: a worker taken out is stopped only after the flush.
    async def retire_one(self) -> None:
        worker = self._workers.pop(0)
        await self._sink.flush()  # expect: CAN301
        worker.stop()
