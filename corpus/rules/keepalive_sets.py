"""A task kept alive in a set nobody cancels through meets no cancellation.

``task = create_task(self._launch(sid)); self._background.add(task);
task.add_done_callback(self._background.discard)``, asyncio's documented
keep-alive idiom, where the module only ever adds to, discards from or counts
that set: nothing can reach the task to cancel it, so its coroutine's awaits
open no window (the loop's teardown aside). A set some method iterates
(``for t in self._tasks: t.cancel()``) can cancel it.
"""

import asyncio
from typing import Any, Dict, Set


class Launcher:
    _background: Set["asyncio.Task[None]"] = set()

    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._states: Dict[str, Any] = {}

    def start(self, sid: str) -> None:
        task = asyncio.create_task(self._launch(sid))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def pending(self) -> int:
        return len(self._background)

    async def _launch(self, sid: str) -> None:
        state = await self._factory.create_state(sid)
        try:
            await state.open_page()
        except Exception:
            await state.close()
            raise
        self._states[sid] = state


class StoppableLauncher:
    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._tasks: Set["asyncio.Task[None]"] = set()
        self._states: Dict[str, Any] = {}

    def start(self, sid: str) -> None:
        task = asyncio.create_task(self._launch(sid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        for t in self._tasks:
            t.cancel()

    async def _launch(self, sid: str) -> None:
        state = await self._factory.create_state(sid)
        try:
            await state.open_page()  # expect: CAN101
        except Exception:
            await state.close()
            raise
        self._states[sid] = state
