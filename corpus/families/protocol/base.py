"""A protocol family: the providers implement SandboxProvider
structurally, without inheriting it (corpus/families/README.md).
SupportsPty is a capability two of them have: its family is folded into
SandboxProvider's, whose grid gains create_pty (absent for cedar).
"""

from __future__ import annotations

from typing import Any, Protocol


class SandboxProvider(Protocol):
    async def create(self, spec: dict) -> Any: ...

    async def exec(self, handle: Any, command: str) -> str: ...

    async def close(self, handle: Any) -> None: ...


class SupportsPty(Protocol):
    async def create_pty(self, handle: Any) -> Any: ...
