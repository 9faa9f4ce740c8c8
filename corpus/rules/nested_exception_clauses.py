"""Two facts a consumer loop needs.

A clause that catches every Exception lets only what is no Exception out
of its try: cancellation, an interrupt. With no finally, that goes on as a
cancellation does, to the first outer clause that catches one, never to an
outer `except Exception`, so a retry loop's `except Exception: await
sleep(1)` cannot see what the inner clause already released. An inner
clause that catches less lets ordinary errors through to it.

A coroutine object handed to a spawner (`tasks.create_task(coro, ...)`)
is the task's to run.
"""

import asyncio
import socket
from typing import Any


class QueryConsumer:
    def __init__(self, tasks: Any, pool: Any) -> None:
        self.tasks = tasks
        self.pool = pool

    async def _process(self, query: Any) -> None:
        await asyncio.sleep(0)

    # Fine: the coroutine goes to the task manager; if that fails it is
    # closed, and nothing but a cancellation leaves the inner try.
    async def consume(self) -> None:
        while True:
            try:
                query = None
                async with self.pool:
                    query = await self.pool.get()
                if query is not None:
                    coro = self._process(query)
                    try:
                        self.tasks.create_task(coro, name="query")
                    except Exception:
                        coro.close()
                        raise
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(1)


class BeaconLoop:
    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.socks: list = []

    # Fine: the inner clause closes the socket on every error, so no round
    # comes back to the top with it open.
    async def announce(self) -> None:
        while True:
            try:
                async with self.pool:
                    addr = await self.pool.get()
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                try:
                    sock.connect(addr)
                except Exception:
                    sock.close()
                    raise
                self.socks.append(sock)
            except Exception:
                await asyncio.sleep(1)

    # Buggy twin: an error other than ValueError goes round the retry with
    # the socket open, unowned at the next round's first await.
    async def announce_narrow(self) -> None:
        while True:
            try:
                async with self.pool:  # expect: CAN102
                    addr = await self.pool.get()
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                try:
                    sock.connect(addr)
                except ValueError:
                    sock.close()
                    raise
                self.socks.append(sock)
            except Exception:
                await asyncio.sleep(1)
