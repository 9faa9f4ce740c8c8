"""Synchronous helpers: no coroutine here, so the prefilter alone would
skip this file."""

import socket
from typing import Any


class Tally:
    """Bookkeeping: lists and counters, nothing to release."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.count = 0

    def note(self, name: str) -> None:
        self.seen.append(name)
        self.count += 1

    def close(self) -> None:
        self.seen.clear()


class Channel:
    """Owns a socket: close() releases it."""

    def __init__(self, host: str, port: int) -> None:
        self._sock: Any = socket.create_connection((host, port))

    def close(self) -> None:
        self._sock.close()
