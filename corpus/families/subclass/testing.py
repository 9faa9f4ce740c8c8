"""The test doubles: an abstract scripted interface (no backend), and its
private implementation (no backend either)."""

from __future__ import annotations

import abc
from typing import Any

from .base import BaseShell


class FakeShell(BaseShell, abc.ABC):
    """What a scripted test shell answers; abstract."""

    @abc.abstractmethod
    def script(self) -> list[str]: ...


class _ScriptedShell(FakeShell):
    def script(self) -> list[str]:
        return []

    async def open_session(self, session_id: str, command: str) -> Any:
        return None

    async def _exec(self, command: str) -> str:
        return ""
