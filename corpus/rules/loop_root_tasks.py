"""A coroutine run as the root task of a private event loop.

`loop.run_until_complete(process())` runs process as a task nothing else
holds: no code can cancel it, and ^C raises KeyboardInterrupt out of the
loop instead of cancelling it. The tasks it keeps in a local set meet no
cancellation at its awaits. The twin is also awaited by a coroutine of the
module, where its caller's cancellation reaches it. A method handed to a
wrapper of the class that runs it so (`self._run(self._open(url))` of
`def _run(self, coro): return self._loop.run_until_complete(coro)`) is
such a root task too.
"""

import asyncio
from typing import Any


def serve_worker(requests: Any, handle: Any) -> None:
    # Fine: the root task of the worker's own loop.
    async def process() -> None:
        loop = asyncio.get_running_loop()
        pending: set = set()
        while True:
            item = await loop.run_in_executor(None, requests.get)
            if item is None:
                break
            task = asyncio.create_task(handle(item))
            pending.add(task)
            task.add_done_callback(pending.discard)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(process())
    except KeyboardInterrupt:
        pass
    finally:
        loop.close()


async def drain(requests: Any, handle: Any) -> None:
    loop = asyncio.get_running_loop()
    pending: set = set()
    while True:
        item = await loop.run_in_executor(None, requests.get)  # expect: CAN102
        if item is None:
            break
        task = asyncio.create_task(handle(item))
        pending.add(task)
        task.add_done_callback(pending.discard)


def drain_in_loop(requests: Any, handle: Any) -> None:
    asyncio.new_event_loop().run_until_complete(drain(requests, handle))


# Buggy twin: drain is also awaited under a timeout, which cancels it.
async def drain_for_a_while(requests: Any, handle: Any) -> None:
    await asyncio.wait_for(drain(requests, handle), 5)


class SyncSession:
    """A synchronous facade over a loop of its own: every public method
    runs a coroutine through `_run`, which makes it that loop's root task."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._loop = asyncio.new_event_loop()
        self._conns: list = []

    def _run(self, coro: Any) -> Any:
        return self._loop.run_until_complete(coro)

    def open(self, url: str) -> Any:
        return self._run(self._open(url))

    # Fine: run only as the facade loop's root task, which nothing cancels.
    async def _open(self, url: str) -> Any:
        conn = await self._client.connect(url)
        try:
            await conn.handshake()
        except Exception:
            await conn.close()
            raise
        self._conns.append(conn)
        return conn

    def open_checked(self, url: str) -> Any:
        return self._run(self._open_checked(url))

    async def open_with_deadline(self, url: str) -> Any:
        return await asyncio.wait_for(self._open_checked(url), 10)

    # Buggy twin: also awaited under a timeout, which can cancel it.
    async def _open_checked(self, url: str) -> Any:
        conn = await self._client.connect(url)
        try:
            await conn.handshake()  # expect: CAN101
        except Exception:
            await conn.close()
            raise
        self._conns.append(conn)
        return conn
