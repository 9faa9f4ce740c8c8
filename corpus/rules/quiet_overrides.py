"""An abstract coroutine stands for its implementations in the tree.

`await self.cleanup()` on an abstract method suspends only if some
implementation can: when every class of the tree that overrides it does so
with a body that suspends nowhere (`pass`, a flag), no cancellation can be
delivered there, so a handler around it swallows none and a task made
before it has no window there. One implementation that awaits is enough
to make the await a checkpoint again.
"""

import asyncio
from abc import ABC, abstractmethod
from typing import Any


class PipeBase(ABC):
    def __init__(self, dce: Any) -> None:
        self.dce = dce
        self.closed = False

    @abstractmethod
    async def cleanup(self) -> None:
        """Close what the interface opened."""

    # Fine: every cleanup of the tree returns at once.
    async def close(self) -> None:
        try:
            await self.cleanup()
        except:
            pass
        self.closed = True


class EventPipe(PipeBase):
    async def cleanup(self) -> None:
        pass


class FilePipe(PipeBase):
    async def cleanup(self) -> None:
        self.closed = True


class SlowBase(ABC):
    def __init__(self, dce: Any) -> None:
        self.dce = dce

    @abstractmethod
    async def cleanup(self) -> None:
        """Close what the interface opened."""

    # Buggy: one implementation waits on the server, and a cancellation
    # there is dropped.
    async def close(self) -> None:
        try:
            await self.cleanup()
        except:  # expect: CAN401
            pass


class QuickPipe(SlowBase):
    async def cleanup(self) -> None:
        pass


class SlowPipe(SlowBase):
    async def cleanup(self) -> None:
        await asyncio.sleep(1)


class LocalFlag:
    def __init__(self) -> None:
        self.stopped = False

    async def _mark(self) -> None:
        self.stopped = True

    # Fine: the coroutine it awaits never suspends.
    async def stop(self) -> None:
        try:
            await self._mark()
        except asyncio.CancelledError:
            pass
