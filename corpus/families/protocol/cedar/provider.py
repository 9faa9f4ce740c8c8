"""Cedar: a local process backend, without a pty; its exec keeps the
process only under `finally`."""

from __future__ import annotations

import asyncio
from typing import Any


class CedarProvider:
    async def create(self, spec: dict) -> Any:
        return dict(spec)

    async def exec(self, handle: Any, command: str) -> str:
        proc = await asyncio.create_subprocess_shell(command, stdout=asyncio.subprocess.PIPE)
        try:
            out, _ = await proc.communicate()
        finally:
            if proc.returncode is None:
                proc.kill()
        return out.decode()

    async def close(self, handle: Any) -> None:
        handle.clear()


class CedarSession:
    """The user-facing API over a provider: it has create and exec but no
    close, so it does not implement SandboxProvider and is no backend."""

    def __init__(self, provider: Any) -> None:
        self._provider = provider

    async def create(self, spec: dict) -> Any:
        return await self._provider.create(spec)

    async def exec(self, handle: Any, command: str) -> str:
        return await self._provider.exec(handle, command)
