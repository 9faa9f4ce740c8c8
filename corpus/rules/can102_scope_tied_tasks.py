"""A task tied to a scope's value.

`async with connect(url) as ws: ping = create_task(self._ping(ws))`: the
task works on the websocket in each of its loops and gives up on its first
error. A cancellation that unwinds the `async with` closes the websocket on
the way out, and the task ends at its next use of it, so leaving it
uncancelled leaks nothing. A task that catches the error and goes round
again, or whose loop never touches the value, runs on. (A coroutine that
never closes the value it is handed is read as working on the scope's
value, owned through the `async with`, as before.)
"""

import asyncio
from typing import Any

import websockets


class Listener:
    def __init__(self, url: str, interval: float) -> None:
        self.url = url
        self.interval = interval

    # Fine: the ping task stops at its first ping on the closed socket.
    async def listen(self, handle: Any) -> None:
        async with websockets.connect(self.url) as ws:
            ping = asyncio.create_task(self._ping(ws))
            try:
                while True:
                    handle(await ws.recv())
            except websockets.ConnectionClosed:
                ping.cancel()

    async def _ping(self, ws: Any) -> None:
        try:
            while True:
                await asyncio.sleep(self.interval)
                try:
                    waiter = await ws.ping()
                    await asyncio.wait_for(waiter, 10)
                except asyncio.TimeoutError:
                    await ws.close()
                    return
        except Exception:
            return

    # Fine: a reader over the socket ends when it closes.
    async def relay(self, out: Any) -> None:
        async with websockets.connect(self.url) as ws:
            reader = asyncio.create_task(self._drain(ws, out))
            await ws.send("subscribe")
            await ws.wait_closed()
            await reader

    async def _drain(self, ws: Any, out: Any) -> None:
        async for message in ws:
            await out.put(message)

    # Buggy: the task goes round again after an error of its ping, so a
    # closed socket does not end it: it sleeps and pings for ever (read as:
    # any error it catches in its loop and does not leave the loop on).
    async def listen_retrying(self, handle: Any) -> None:
        async with websockets.connect(self.url) as ws:
            ping = asyncio.create_task(self._ping_forever(ws))
            try:
                while True:
                    handle(await ws.recv())  # expect: CAN101
            except websockets.ConnectionClosed:
                ping.cancel()

    async def _ping_forever(self, ws: Any) -> None:
        try:
            while True:
                await asyncio.sleep(self.interval)
                try:
                    await ws.ping()
                except websockets.ConnectionClosed:
                    continue
        finally:
            await ws.close()

    # Buggy: the task's loop never uses the socket it was handed.
    async def listen_counting(self, handle: Any) -> None:
        async with websockets.connect(self.url) as ws:
            tick = asyncio.create_task(self._count(ws))
            try:
                while True:
                    handle(await ws.recv())  # expect: CAN101
            except websockets.ConnectionClosed:
                tick.cancel()

    async def _count(self, ws: Any) -> None:
        try:
            while True:
                await asyncio.sleep(self.interval)
                self.ticks += 1
        finally:
            await ws.close()
