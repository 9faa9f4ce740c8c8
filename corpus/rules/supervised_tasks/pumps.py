"""Loops run as supervised tasks, and one run in the caller's task."""

import asyncio
from typing import Any

from .supervisor import TaskSupervisor


class Dispatcher:
    def __init__(self, supervisor: TaskSupervisor) -> None:
        self._supervisor = supervisor
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()

    def start(self) -> None:
        self._task = self._supervisor.create(self._run(), name="dispatch")

    # Fine: the outermost frame of the supervised task.
    async def _run(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                print(item)
        except asyncio.CancelledError:
            return


class Sender:
    def __init__(self, writer: Any, supervisor: TaskSupervisor) -> None:
        self._writer = writer
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._task = supervisor.create(self._loop(), name="send")

    # Fine: the same through the supervisor parameter.
    async def _loop(self) -> None:
        try:
            while True:
                data = await self._queue.get()
                self._writer.write(data)
                await self._writer.drain()
        except asyncio.CancelledError:
            return


class InlineSender:
    def __init__(self, writer: Any) -> None:
        self._writer = writer
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()

    # Buggy twin: run in the caller's task, whose cancel is swallowed.
    async def pump(self) -> None:
        try:
            while True:
                data = await self._queue.get()
                self._writer.write(data)
                await self._writer.drain()
        except asyncio.CancelledError:  # expect: CAN401
            return

    async def serve(self) -> None:
        await self.pump()
