"""A coroutine function's call that is not awaited makes a coroutine object.

`coro = loop.create_server(...)` holds no server: the server exists only
once something runs the coroutine (here a task awaited at once, which a
cancellation reaches, so create_server is cancelled with it). The twins
await the maker itself and then leave the server unowned across another
await, or call the blocking `socket.create_connection`, which returns a
connected socket whether awaited or not.
"""

import asyncio
import socket


async def relay(loop, factory, peer):
    coro = loop.create_server(factory, "0.0.0.0")
    server = await loop.create_task(coro)
    return server, peer


async def relay_exposed(loop, factory, peer):
    server = await loop.create_server(factory, "0.0.0.0")
    await peer.announce(server.sockets[0].getsockname())  # expect: CAN102
    return server


async def spawn_later(argv, runner):
    made = asyncio.create_subprocess_exec(*argv)
    return await runner.run(made)


async def probe(host, port, peer):
    sock = socket.create_connection((host, port))
    await peer.hello()  # expect: CAN102
    sock.close()
