"""Channels register with their connection; a detached pipe does not."""

import os
from typing import Any


class Channel:
    def __init__(self, conn: Any, name: str) -> None:
        self._conn = conn
        self._name = name
        self._id = conn.add_channel(self)

    async def create(self, factory: Any) -> Any:
        self._session = factory(self)
        return self._session

    def close(self) -> None:
        self._conn.remove_channel(self._id)


class Pipe:
    def __init__(self, conn: Any, name: str) -> None:
        self._conn = conn
        self._name = name
        self._rfd, self._wfd = os.pipe()

    async def create(self, factory: Any) -> Any:
        self._session = factory(self)
        return self._session

    def close(self) -> None:
        self._session = None
        os.close(self._rfd)
        os.close(self._wfd)


class Tap:
    """Registers with the connection it keeps: `self._conn = conn`, then
    `self._conn.taps.add(self)`."""

    def __init__(self, conn: Any, name: str) -> None:
        self._conn = conn
        self._name = name
        self._conn.taps.add(self)

    async def create(self, factory: Any) -> Any:
        self._session = factory(self)
        return self._session

    def close(self) -> None:
        self._conn.taps.discard(self)


class Probe:
    """Registers only with a connection of its own making, which nobody
    else reaches."""

    def __init__(self, conn: Any, name: str) -> None:
        self._conn = conn.fork()
        self._name = name
        self._conn.taps.add(self)

    async def create(self, factory: Any) -> Any:
        self._session = factory(self)
        return self._session

    def close(self) -> None:
        self._conn.taps.discard(self)
