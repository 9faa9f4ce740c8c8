"""Entering an @asynccontextmanager of the tree.

`async with Hooks.install():` where the context manager's code before its
first yield cannot suspend (it only builds an object and registers
callbacks): entering the statement is no checkpoint, so a task started just
before it is not yet exposed there; the `try`/`finally` inside the block
owns it before anything can suspend. A context manager that awaits before
its yield (`await self.ready()`) suspends on entry.
"""

import asyncio
import contextlib
from typing import Any, AsyncIterator


class Hooks:
    def __init__(self) -> None:
        self.pending: list = []

    @classmethod
    @contextlib.asynccontextmanager
    async def install(cls) -> AsyncIterator["Hooks"]:
        hooks = cls()
        try:
            yield hooks
        finally:
            await asyncio.gather(*hooks.pending)

    @classmethod
    @contextlib.asynccontextmanager
    async def install_when_ready(cls) -> AsyncIterator["Hooks"]:
        hooks = cls()
        await hooks.ready()
        try:
            yield hooks
        finally:
            await asyncio.gather(*hooks.pending)

    async def ready(self) -> None: ...


# Fine: entering Hooks.install() does not suspend, and the finally inside
# the block cancels the worker.
async def serve(work: Any) -> None:
    worker = asyncio.create_task(work())
    async with Hooks.install():
        try:
            await asyncio.sleep(3600)
        finally:
            worker.cancel()


# Buggy: install_when_ready awaits before its yield, so a cancellation while
# entering it leaves the worker running with no one to cancel it.
async def serve_when_ready(work: Any) -> None:
    worker = asyncio.create_task(work())
    async with Hooks.install_when_ready():  # expect: CAN102
        try:
            await asyncio.sleep(3600)
        finally:
            worker.cancel()
