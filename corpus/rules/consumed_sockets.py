"""A listening socket handed to the loop's server, and a temporary directory.

`loop.create_server(factory, sock=sock)` wraps the socket in the server it
returns: from the call on, the server is what owns it (as with
`create_connection(sock=...)`, and a datagram endpoint made with
`create_datagram_endpoint(..., sock=sock)`). A `tempfile.TemporaryDirectory` removes its
directory through a finalizer when the object is collected, so a cancel
leaves nothing behind. A socket that is still only the function's, made
before the server and handed over after an await, is a window.
"""

import asyncio
import socket
import tempfile


# Fine: the socket belongs to its server from the call on.
async def listen(loop: asyncio.AbstractEventLoop, factory, addr):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, True)
    sock.bind(addr)
    server = await loop.create_server(factory, sock=sock)
    return server


# Fine: the directory is removed when the object goes away.
async def agent_socket_dir(conn):
    tempdir = tempfile.TemporaryDirectory(prefix="agent-")
    listener = await conn.listen_unix(tempdir.name + "/agent")
    return tempdir, listener


# Buggy: the second socket waits for the first server to start serving, and
# the first server for the second.
async def listen_pair(loop: asyncio.AbstractEventLoop, factory, a, b):
    first = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    second = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    first.bind(a)
    second.bind(b)
    server_a = await loop.create_server(factory, sock=first)  # expect: CAN102
    server_b = await loop.create_server(factory, sock=second)  # expect: CAN102
    return server_a, server_b


# Fine: a datagram endpoint takes its socket over the same way; a helper of
# the module that only wraps the socket in one is handed it for good.
class Listener:
    def __init__(self, loop):
        self.loop = loop
        self.readers = []

    async def _wrap(self, sock):
        transport, protocol = await self.loop.create_datagram_endpoint(asyncio.DatagramProtocol, sock=sock)
        self.readers.append(transport)
        return transport

    async def add(self, addr):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(addr)
        try:
            await self._wrap(sock)
        except Exception:
            sock.close()
            raise


# Buggy: the socket waits for another endpoint first.
async def add_after(loop, first_addr, addr):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(addr)
    other = await loop.create_datagram_endpoint(asyncio.DatagramProtocol, local_addr=first_addr)  # expect: CAN102
    transport, _ = await loop.create_datagram_endpoint(asyncio.DatagramProtocol, sock=sock)  # expect: CAN102
    return other, transport
