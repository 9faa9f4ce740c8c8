"""trio closes a socket whose connect is cancelled.

``await sock.connect(addr)`` on ``sock = trio.socket.socket(...)``: trio's
``SocketType.connect`` closes the socket itself when it is cancelled, so
that await is no window of the socket (catalog cancel-closes). Another
await on the socket under the same ``except OSError`` (a greeting sent
after the connect) is one: cancelled there, the socket is left open.
"""

import trio


async def connect_tcp(host: str, port: int) -> trio.socket.SocketType:
    sock = trio.socket.socket(family=trio.socket.AF_INET, type=trio.socket.SOCK_STREAM)
    try:
        await sock.connect((host, port))
    except OSError:
        sock.close()
        raise
    return sock


async def connect_and_greet(host: str, port: int) -> trio.socket.SocketType:
    sock = trio.socket.socket(family=trio.socket.AF_INET, type=trio.socket.SOCK_STREAM)
    try:
        await sock.connect((host, port))
        await sock.send(b"HELLO\r\n")  # expect: CAN101
    except OSError:
        sock.close()
        raise
    return sock
