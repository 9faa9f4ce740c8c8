"""Delta: the same boundary, covered."""

from __future__ import annotations

import asyncio
from typing import Any


class DeltaSession:
    def __init__(self, http: Any) -> None:
        self._http = http
        self._open: dict[str, Any] = {}

    async def open(self, name: str) -> Any:
        ws = await self._http.ws_connect(f"/delta/{name}")
        try:
            await ws.receive_json()
        except BaseException:
            await asyncio.shield(ws.close())
            raise
        self._open[name] = ws
        return ws
