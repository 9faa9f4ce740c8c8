"""River: open_session covered by a `finally` with a registered flag; its
own close_session tears down before it unregisters (no window), its own
run."""

from __future__ import annotations

import asyncio
from typing import Any

from ..base import BaseShell


class RiverShell(BaseShell):
    async def open_session(self, session_id: str, command: str) -> Any:
        ws = await self._client.ws_connect(f"/river/{session_id}")
        registered = False
        try:
            await ws.send_json({"command": command})
            async with self._lock:
                self._sessions[session_id] = ws
                registered = True
        finally:
            if not registered:
                await asyncio.shield(ws.close())
        return ws

    async def close_session(self, session_id: str) -> None:
        ws = self._sessions.get(session_id)
        if ws is not None:
            await asyncio.shield(ws.close())
            self._sessions.pop(session_id, None)

    async def run(self, command: str) -> str:
        return await self._exec(command)

    async def _exec(self, command: str) -> str:
        return await self._client.post_json("/river/exec", {"command": command})
