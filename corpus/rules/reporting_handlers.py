"""A handler that only logs the value is no cleanup of it.

``except Exception: log.warning("send failed", fd=sock.fileno())`` reports
the socket; nothing in it could close the socket, so the window is one that
no region releases (CAN102), not a cleanup that cancellation skips (CAN101).
A handler that closes the socket is that cleanup.
"""

import logging
import socket
from typing import Any

log = logging.getLogger(__name__)


async def greet(loop: Any, host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, (host, 7000))  # expect: CAN102
    except Exception:
        log.warning("connect failed", extra={"fd": sock.fileno()})
        raise
    return sock


async def greet_closing(loop: Any, host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, (host, 7000))  # expect: CAN101
    except Exception:
        log.warning("connect failed", extra={"fd": sock.fileno()})
        sock.close()
        raise
    return sock
