"""Connection handlers (their windows are judged through their callers)."""

import asyncio
from typing import Any


class SessionHandler:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def __aenter__(self) -> "SessionHandler":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    # Fine: the last frames of the connection task (routes.py).
    async def run(self) -> None:
        try:
            while True:
                message = await self.ws.receive_text()
                await self.ws.send_text(message)
        except asyncio.CancelledError:
            return


class RelayHandler:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def __aenter__(self) -> "RelayHandler":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    # Buggy twin: awaited by a plain coroutine, in its caller's task.
    async def run(self) -> None:
        try:
            while True:
                message = await self.ws.receive_text()
                await self.ws.send_text(message)
        except asyncio.CancelledError:  # expect: CAN401
            return
