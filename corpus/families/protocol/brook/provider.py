"""Brook: its create hands the sandbox to a registry before any await."""

from __future__ import annotations

import asyncio
from typing import Any


class BrookProvider:
    def __init__(self, api: Any) -> None:
        self._api = api
        self._live: dict[str, Any] = {}
        self._lock = asyncio.Lock()

    async def create(self, spec: dict) -> Any:
        box = await self._api.create_sandbox(spec)
        self._live[box.id] = box
        await self._api.wait_ready(box)
        return box

    async def exec(self, handle: Any, command: str) -> str:
        return await self._api.run(handle, command)

    async def close(self, handle: Any) -> None:
        await self._api.delete_sandbox(handle)
        self._live.pop(handle.id, None)

    async def create_pty(self, handle: Any) -> Any:
        pty = await self._api.open_pty(handle)
        try:
            await pty.resize(24, 80)  # expect: CAN101
        except Exception:
            await pty.close()
            raise
        return pty
