"""Tasks nothing can cancel.

A task whose holder is only tested, shielded or waited for (never
cancelled, awaited bare, or handed to anything else), and whose function
runs only as that task, never meets a cancellation at its checkpoints: its
body opens no window. Its twin is cancelled by its owner, so it does.
"""

import asyncio
from typing import Any


class Supervisor:
    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn
        self._start_task: asyncio.Task[None] | None = None
        self._run_task: asyncio.Task[None] | None = None
        self._procs: list[Any] = []

    async def start(self) -> None:
        self._start_task = asyncio.create_task(self._start())
        await asyncio.shield(self._start_task)

    async def aclose(self) -> None:
        if self._start_task is not None and not self._start_task.done():
            await asyncio.wait([self._start_task])

    # Fine: it runs only as _start_task, which nothing cancels.
    async def _start(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()
        except Exception:
            await proc.aclose()
            raise
        self._procs.append(proc)

    def run(self) -> None:
        self._run_task = asyncio.create_task(self._run())

    def stop(self) -> None:
        if self._run_task is not None:
            self._run_task.cancel()

    # Buggy: its owner cancels it, and the handler misses cancellation.
    async def _run(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()  # expect: CAN101
        except Exception:
            await proc.aclose()
            raise
        self._procs.append(proc)


class Worker:
    """A process's main task, driven by its own event loop."""

    def __init__(self, spawn: Any) -> None:
        self._spawn = spawn
        self._main: asyncio.Task[None] | None = None
        self._side: asyncio.Task[None] | None = None

    def run(self) -> None:
        loop = asyncio.new_event_loop()
        # run_until_complete runs the loop until the task is done; an
        # interrupt leaves the task pending, it does not cancel it
        self._main = loop.create_task(self._serve())
        while not self._main.done():
            try:
                loop.run_until_complete(self._main)
            except KeyboardInterrupt:
                pass

    # Fine: it runs only as _main, which nothing cancels.
    async def _serve(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()
        except Exception:
            await proc.aclose()
            raise
        await proc.aclose()

    def run_side(self) -> None:
        loop = asyncio.new_event_loop()
        self._side = loop.create_task(self._side_job())
        loop.run_until_complete(self._side)

    def interrupt(self) -> None:
        if self._side is not None:
            self._side.cancel()

    # Buggy: the same loop runs it, but interrupt() cancels it.
    async def _side_job(self) -> None:
        proc = await self._spawn()
        try:
            await proc.handshake()  # expect: CAN101
        except Exception:
            await proc.aclose()
            raise
        await proc.aclose()
