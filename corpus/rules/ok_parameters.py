"""Parameters belong to the caller: a function never acquires its own
parameters, even when it closes them on an error path.

No function in this file has a finding.
"""

import asyncio
from typing import Any


# Fine: `ws` is the caller's; closing it on error is a courtesy, not ownership.
async def handshake(ws: Any, token: str) -> None:
    try:
        await ws.send_json({"token": token})
        await ws.receive_json()
    except Exception:
        await ws.close()
        raise


# Fine: waiting for a process someone else started.
async def finish(proc: Any) -> int:
    return await proc.wait()


class Forwarder:
    def __init__(self) -> None:
        self._count = 0

    # Fine: reads from a websocket and a task it was given.
    async def forward(self, ws: Any, sink: Any, task: asyncio.Task) -> None:
        async for msg in ws:
            await sink.put(msg)
            self._count += 1
        await task

    # Fine: a parameter released in `finally` is still the caller's.
    async def drain_and_close(self, writer: Any) -> None:
        try:
            await writer.drain()
        finally:
            writer.close()
