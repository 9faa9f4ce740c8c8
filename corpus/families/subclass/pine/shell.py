"""Pine: open_session covered by `except BaseException` (the precedent a
fix of Kite copies); close_session and run are the base's."""

from __future__ import annotations

import asyncio
from typing import Any

from ..base import BaseShell


class PineShell(BaseShell):
    async def open_session(self, session_id: str, command: str) -> Any:
        ws = await self._client.ws_connect(f"/pine/{session_id}")
        reader = asyncio.create_task(self._pump(ws))
        try:
            await ws.send_json({"command": command})
            async with self._lock:
                self._sessions[session_id] = (ws, reader)
        except BaseException:
            reader.cancel()
            await asyncio.shield(ws.close())
            raise
        return ws

    async def _exec(self, command: str) -> str:
        return await self._client.post_json("/pine/exec", {"command": command})

    async def _pump(self, ws: Any) -> None:
        async for _ in ws:
            pass
