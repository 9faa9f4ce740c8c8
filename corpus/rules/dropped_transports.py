"""A transport dropped into `_`, kept through its protocol.

`_, proto = await loop.create_connection(factory, host, port)` keeps only
the protocol, which the loop handed the transport in `connection_made`: the
protocol is what the function holds of the connection, so it is the value
whose ownership counts. Both names kept: the transport is, as always.
"""

import asyncio
from typing import Any


# Buggy: the protocol, and its transport, wait for the relay server with no
# handler that closes them.
async def relay(loop: asyncio.AbstractEventLoop, factory: Any, host: str, port: int) -> Any:
    _, proto = await loop.create_connection(factory, host, port)
    server = await loop.create_server(lambda: factory(proto), "0.0.0.0")  # expect: CAN102
    return proto, server


# Fine: the protocol closes its transport when the server cannot start.
async def relay_closed(loop: asyncio.AbstractEventLoop, factory: Any, host: str, port: int) -> Any:
    _, proto = await loop.create_connection(factory, host, port)
    try:
        server = await loop.create_server(lambda: factory(proto), "0.0.0.0")
    except BaseException:
        proto.transport.close()
        raise
    return proto, server


# Buggy: the first endpoint waits for the second one.
async def endpoints(loop: asyncio.AbstractEventLoop, factory: Any, a: Any, b: Any) -> Any:
    _, first = await loop.create_datagram_endpoint(factory, local_addr=a)
    _, second = await loop.create_datagram_endpoint(factory, local_addr=b)  # expect: CAN102
    return first, second
