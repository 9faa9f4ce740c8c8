"""Birch: start covered by `except BaseException`."""

from __future__ import annotations

import asyncio


class BirchRunner:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._procs: dict[str, asyncio.subprocess.Process] = {}

    async def start(self, name: str, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        try:
            async with self._lock:
                self._procs[name] = proc
        except BaseException:
            proc.kill()
            raise

    async def stop(self, name: str) -> None:
        proc = self._procs.get(name)
        if proc is not None:
            proc.kill()
            await asyncio.shield(proc.wait())
            self._procs.pop(name, None)
