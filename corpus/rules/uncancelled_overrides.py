"""Tasks nothing can cancel, class by class.

`self._ready_task = asyncio.create_task(self._settle())` in a method of a
class starts that class's `_settle`. What can cancel the task is what
touches `self._ready_task` on an object of that class: a use in the class
itself, in a subclass, or in a base by a method the class does not
replace. A base's `self._ready_task.cancel()` in a method the subclass
overrides never runs on the subclass's objects, and a class of the module
unrelated to it holds an attribute of the same name on other objects.
"""

import asyncio
from typing import Any


async def spawn_helper() -> Any: ...


class State:
    def __init__(self) -> None:
        self._ready_task: asyncio.Task[None] | None = None
        self._helpers: list[Any] = []

    # Buggy: on_ready cancels the task running _settle.
    async def _settle(self) -> None:
        helper = await spawn_helper()
        try:
            await helper.handshake()  # expect: CAN101
        except Exception:
            await helper.aclose()
            raise
        self._helpers.append(helper)

    def on_ready(self) -> None:
        if self._ready_task is not None:
            self._ready_task.cancel()
        self._ready_task = asyncio.create_task(self._settle())


class ShardedState(State):
    # Fine: ShardedState replaces on_ready, whose cancel never runs on a
    # ShardedState, and nothing else can cancel its _ready_task.
    async def _settle(self) -> None:
        helper = await spawn_helper()
        try:
            await helper.handshake()
        except Exception:
            await helper.aclose()
            raise
        self._helpers.append(helper)

    def on_ready(self) -> None:
        if self._ready_task is None:
            self._ready_task = asyncio.create_task(self._settle())


class LazyState(State):
    # Buggy: LazyState keeps State.on_ready, which cancels the task.
    async def _settle(self) -> None:
        helper = await spawn_helper()
        try:
            await helper.handshake()  # expect: CAN101
        except Exception:
            await helper.aclose()
            raise
        self._helpers.append(helper)

    def start(self) -> None:
        self._ready_task = asyncio.create_task(self._settle())


class Unrelated:
    def __init__(self) -> None:
        self._ready_task: asyncio.Task[None] | None = None

    def stop(self) -> None:
        if self._ready_task is not None:
            self._ready_task.cancel()
