"""A task that works only on a stream the cleanup closes.

`reader = create_task(pump(ws))` with `finally: await ws.close()` around
the wait: when the wait is cancelled, the finally closes the websocket and
the pump, reading it, ends on the closed socket. The twin's pump also reads
a stream the function was handed, which nothing here closes: it can stay
blocked there.
"""

import asyncio
from typing import Any


class Feed:
    def __init__(self) -> None:
        self.messages: list = []

    async def pump(self, ws: Any) -> None:
        async for msg in ws:
            self.messages.append(msg)

    async def listen(self, session: Any, url: str) -> None:
        ws = await session.ws_connect(url)
        try:
            reader = asyncio.create_task(self.pump(ws))
            # Fine: the reader ends when the finally closes ws.
            await asyncio.wait([reader], timeout=30)
            reader.cancel()
        finally:
            await ws.close()


async def forward(src: Any, ws: Any) -> None:
    while line := await src.readline():
        await ws.send(line)


async def bridge(session: Any, url: str, stdin: Any) -> None:
    ws = await session.ws_connect(url)
    try:
        out = asyncio.create_task(forward(stdin, ws))
        # Buggy twin: out may stay blocked reading stdin after ws closes.
        await asyncio.wait([out], timeout=30)  # expect: CAN102
        out.cancel()
    finally:
        await ws.close()
