import asyncio
from abc import ABC, abstractmethod
from typing import Any, Optional


class Link(ABC):
    @abstractmethod
    async def receive(self) -> Optional[Any]:
        """Wait for the next frame."""


class TcpLink(Link):
    def __init__(self, reader: Any) -> None:
        self._reader = reader

    # Fine: the hub runs it as a task of its own and cancels it to stop;
    # returning None on that cancel ends the task.
    async def receive(self) -> Optional[Any]:
        try:
            return await self._reader.readexactly(4)
        except asyncio.CancelledError:
            return None


class PipeLink:
    def __init__(self, reader: Any) -> None:
        self._reader = reader

    # Buggy: relay.py awaits it in place, and a cancel of that caller is
    # turned into an ordinary None.
    async def receive(self) -> Optional[Any]:
        try:
            return await self._reader.readexactly(4)
        except asyncio.CancelledError:  # expect: CAN401
            return None
