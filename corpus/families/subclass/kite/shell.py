"""Kite: a subclass whose open_session cleans up under `except Exception`
only (a gap), and that inherits close_session and run."""

from __future__ import annotations

import asyncio
from typing import Any

from ..base import BaseShell


class KiteShell(BaseShell):
    async def open_session(self, session_id: str, command: str) -> Any:
        ws = await self._client.ws_connect(f"/kite/{session_id}")
        reader = asyncio.create_task(self._pump(ws))
        try:
            await asyncio.wait_for(ws.send_json({"command": command}), timeout=10)  # expect: CAN101
            async with self._lock:
                self._sessions[session_id] = (ws, reader)
        except Exception:
            reader.cancel()
            await ws.close()
            raise
        return ws

    async def _exec(self, command: str) -> str:
        return await self._client.post_json("/kite/exec", {"command": command})

    async def _pump(self, ws: Any) -> None:
        async for _ in ws:
            pass
