"""A helper that hands back what self keeps (`return self._ws`) lends it: the
caller does not own it, whatever its own cleanup does with it. Through a
helper of the module that awaits its argument under a timeout, too.
"""

import asyncio
from typing import Any


class Streamer:
    def __init__(self, session: Any, url: str) -> None:
        self._session = session
        self._url = url
        self._ws: Any = None

    async def _bounded(self, awaitable: Any, timeout_s: float) -> Any:
        return await asyncio.wait_for(awaitable, timeout=timeout_s)

    async def _ensure_ws(self) -> Any:
        if self._ws is None:
            self._ws = await self._session.ws_connect(self._url)
        return self._ws

    async def _open_ws(self) -> Any:
        return await self._session.ws_connect(self._url)

    def _abort(self, ws: Any) -> None:
        ws.close()

    # Fine: the socket is self._ws; the abort on errors is a courtesy.
    async def send(self, frame: bytes) -> None:
        ws = await self._bounded(self._ensure_ws(), 5)
        try:
            await ws.send_bytes(frame)
        except Exception:
            self._abort(ws)
            raise

    # Buggy twin: _open_ws hands over a fresh socket nothing else holds.
    async def send_once(self, frame: bytes) -> None:
        ws = await self._bounded(self._open_ws(), 5)
        try:
            await ws.send_bytes(frame)  # expect: CAN101
        except Exception:
            self._abort(ws)
            raise
        await ws.close()
