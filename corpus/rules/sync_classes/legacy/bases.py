"""An older base of the same name that does own something: the scan must
tell the two `bases` modules apart by the longer module name."""

import socket
from typing import Any


class IdModelBase:
    def __init__(self, host: str) -> None:
        self._sock: Any = socket.create_connection((host, 80))

    def close(self) -> None:
        self._sock.close()
