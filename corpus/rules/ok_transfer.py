"""Correct shapes: ownership handed over before the first checkpoint.

Once the registry, an attribute, the caller (``return`` / ``yield``) or a
registering call owns the value, a later cancellation leaves it reachable.
No function in this file has a finding.
"""

import asyncio
from typing import Any, AsyncIterator

_ACTIVE: set[asyncio.Task] = set()


class Hub:
    def __init__(self, session: Any, bus: Any) -> None:
        self._session = session
        self._bus = bus
        self._tasks: dict[str, asyncio.Task] = {}
        self._slow: set[asyncio.Task] = set()
        self._sockets: list[Any] = []
        self._by_key: dict[str, Any] = {}
        self._proc: Any = None

    async def _run(self, key: str) -> None:
        await asyncio.sleep(1)

    def _register(self, key: str, ws: Any) -> None:
        self._by_key[key] = ws

    # Fine: registry insert, then the announcement.
    async def start_registered(self, key: str) -> None:
        t = asyncio.create_task(self._run(key))
        self._tasks[key] = t
        await self._bus.publish("started", key)

    # Fine: stored on self before waiting for the process.
    async def spawn_attr(self, argv: list[str]) -> int:
        proc = await asyncio.create_subprocess_exec(*argv)
        self._proc = proc
        return await proc.wait()

    # Fine: appended to a list on self before the first send.
    async def connect_listed(self, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        self._sockets.append(ws)
        await ws.send_str("hello")
        return ws

    # Fine: returned on one path, registered on the other, before any await.
    async def start_maybe_fast(self, key: str, fast: bool) -> asyncio.Task | None:
        t = asyncio.create_task(self._run(key))
        if fast:
            return t
        self._slow.add(t)
        await self._bus.publish("queued", key)
        return None

    # Fine: each websocket is yielded to the consumer before the next connect.
    async def stream_sockets(self, urls: list[str]) -> AsyncIterator[Any]:
        for url in urls:
            ws = await self._session.ws_connect(url)
            yield ws

    # Fine: `_register` (same class) stores the websocket before the send.
    async def connect_registered(self, key: str, url: str) -> None:
        ws = await self._session.ws_connect(url)
        self._register(key, ws)
        await ws.send_str("hello")

    # Fine: a module-level registry owns the task.
    async def start_global(self, key: str) -> None:
        t = asyncio.create_task(self._run(key))
        _ACTIVE.add(t)
        t.add_done_callback(_ACTIVE.discard)
        await self._bus.publish("started", key)

    # Fine: handed to another object's watcher, whose name says it keeps
    # what it is given (register-word `watch`, like `track`, `adopt`).
    async def start_watched(self, key: str, run: Any) -> None:
        t = asyncio.create_task(self._run(key))
        run.watch_handle(t)
        await self._bus.publish("watched", key)
