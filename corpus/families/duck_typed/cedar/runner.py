"""Cedar: start only, no stop (absent)."""

from __future__ import annotations

import asyncio


class CedarRunner:
    def __init__(self) -> None:
        self._procs: dict[str, asyncio.subprocess.Process] = {}

    async def start(self, name: str, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        self._procs[name] = proc
