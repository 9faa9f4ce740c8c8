"""A tracing wrapper: a subclass that only hands every boundary to the
shell it wraps. It is a proxy, not a backend: its cells would be the
wrapped shell's."""

from __future__ import annotations

from typing import Any

from .base import BaseShell


class TracingShell(BaseShell):
    def __init__(self, inner: BaseShell) -> None:
        super().__init__(None)
        self._inner = inner

    async def open_session(self, session_id: str, command: str) -> Any:
        return await self._inner.open_session(session_id, command)

    async def close_session(self, session_id: str) -> None:
        await self._inner.close_session(session_id)

    async def run(self, command: str) -> str:
        return await self._inner.run(command)

    async def _exec(self, command: str) -> str:
        return await self._inner._exec(command)
