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


class Pipeline:
    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.connection = None

    async def reset(self) -> None:
        if self.connection is not None:
            await self.pool.release(self.connection)
            self.connection = None

    # Fine: the connection goes to self before the cast names it again;
    # the cast is the same object under a type, still self's.
    async def execute(self, run: Any) -> Any:
        conn = self.connection
        if not conn:
            conn = await self.pool.get_connection("MULTI")
            self.connection = conn
        conn = cast(Any, conn)
        try:
            return await run(conn)
        except (ConnectionError, TimeoutError):
            await conn.disconnect()
            raise
        finally:
            await self.reset()

    # Buggy twin: cast or not, a connection self never holds is released
    # only on an error.
    async def execute_once(self, run: Any) -> Any:
        conn = await self.pool.get_connection("MULTI")
        conn = cast(Any, conn)
        try:
            return await run(conn)  # expect: CAN101
        except (ConnectionError, TimeoutError):
            await conn.disconnect()
            raise
