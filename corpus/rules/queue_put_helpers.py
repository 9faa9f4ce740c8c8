"""A method of the tree whose only await is a put on an unbounded queue never suspends.

``self._events = asyncio.Queue()`` is unbounded, so ``await self._events.put(x)``
returns at once; a helper that awaits nothing else (``_note``) returns at once
too, and an await of it is no checkpoint for the child made just before. A
helper that puts on a bounded queue (``_note_bounded``) can wait for room, and
an await of it is one.
"""

import asyncio
from typing import Any, List


class Recorder:
    def __init__(self) -> None:
        self._events: "asyncio.Queue[Any]" = asyncio.Queue()
        self._slots: "asyncio.Queue[Any]" = asyncio.Queue(maxsize=2)
        self._children: List[Any] = []

    async def _note(self, kind: str, value: Any) -> None:
        await self._events.put((kind, value))

    async def _note_bounded(self, kind: str, value: Any) -> None:
        await self._slots.put((kind, value))

    async def run(self, argv: List[str]) -> int:
        child = await asyncio.create_subprocess_exec(*argv)
        await self._note("started", argv[0])
        try:
            return await child.wait()
        finally:
            if child.returncode is None:
                child.kill()

    async def run_bounded(self, argv: List[str]) -> int:
        child = await asyncio.create_subprocess_exec(*argv)
        await self._note_bounded("started", argv[0])  # expect: CAN102
        try:
            return await child.wait()
        finally:
            if child.returncode is None:
                child.kill()
