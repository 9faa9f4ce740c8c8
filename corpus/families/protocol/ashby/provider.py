"""Ashby: creates sandboxes under a timeout without a shield (a gap)."""

from __future__ import annotations

import asyncio
from typing import Any


class AshbyProvider:
    def __init__(self, api: Any) -> None:
        self._api = api

    async def create(self, spec: dict) -> Any:
        return await asyncio.wait_for(self._api.create_sandbox(spec), timeout=30)  # expect: CAN201

    async def exec(self, handle: Any, command: str) -> str:
        return await self._api.run(handle, command)

    async def close(self, handle: Any) -> None:
        await self._api.delete_sandbox(handle)

    async def create_pty(self, handle: Any) -> Any:
        pty = await self._api.open_pty(handle)
        try:
            await pty.resize(24, 80)
        except BaseException:
            await asyncio.shield(pty.close())
            raise
        return pty
