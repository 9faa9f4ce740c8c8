"""Duck-typed siblings (corpus/families/README.md): three runners with no
common base and no protocol, whose names end alike and that define the
same async methods. Alder's start registers its process only after a lock
with no handler around it (a gap)."""

from __future__ import annotations

import asyncio


class AlderRunner:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._procs: dict[str, asyncio.subprocess.Process] = {}

    async def start(self, name: str, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        async with self._lock:  # expect: CAN102
            self._procs[name] = proc

    async def stop(self, name: str) -> None:
        proc = self._procs.get(name)
        if proc is not None:
            proc.kill()
            await asyncio.shield(proc.wait())
            self._procs.pop(name, None)


class AlderConfig:
    """Not a runner: its name ends otherwise."""

    async def load(self) -> dict:
        return {}
