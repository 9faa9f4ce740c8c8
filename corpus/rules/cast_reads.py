"""`typing.cast` around a read of an attribute.

`peer = cast(LightPeer, self.pool.best_peer)` reads the pool's peer and
tells the type checker what it is: the pool still holds it, so
disconnecting a misbehaving peer in a handler is no cleanup of a value
this function made. A peer the function dials itself and disconnects only
on ordinary errors is still reported.
"""

from typing import Any, cast


class BadResponse(Exception):
    pass


class LightPeer:
    async def request(self, what: str) -> Any:
        raise NotImplementedError

    async def disconnect(self, reason: str) -> None:
        raise NotImplementedError


class Chain:
    def __init__(self, pool: Any) -> None:
        self.pool = pool

    # Fine: the peer is the pool's.
    async def fetch(self, what: str) -> Any:
        for _ in range(3):
            peer = cast(LightPeer, self.pool.best_peer)
            try:
                return await peer.request(what)
            except BadResponse:
                await peer.disconnect("bad response")
        raise TimeoutError(what)

    # Buggy: a peer dialled here is disconnected only on errors.
    async def fetch_direct(self, address: str, what: str) -> Any:
        peer = await self.pool.dial(address)
        try:
            return await peer.request(what)  # expect: CAN101
        except BadResponse:
            await peer.disconnect("bad response")
            raise
