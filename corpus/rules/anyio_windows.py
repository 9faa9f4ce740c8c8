"""anyio: cancellation is whatever ``anyio.get_cancelled_exc_class()``
returns for the running backend, and it is never an ``Exception``.
"""

from typing import Any

import anyio


class AnyioLinks:
    def __init__(self, source: Any) -> None:
        self._source = source
        self._streams: list[Any] = []

    # Fine: the backend's cancellation class is caught, the stream closed,
    # and the cancellation re-raised.
    async def attach(self, host: str, port: int) -> None:
        stream = await anyio.connect_tcp(host, port)
        try:
            await stream.send(b"HELLO\n")
        except anyio.get_cancelled_exc_class():
            await anyio.aclose_forcefully(stream)
            raise
        except Exception:
            await stream.aclose()
            raise
        self._streams.append(stream)

    # Buggy: move_on_after times the send out, but releases nothing.
    async def attach_timed(self, host: str, port: int) -> None:
        stream = await anyio.connect_tcp(host, port)
        with anyio.move_on_after(3):
            await stream.send(b"HELLO\n")  # expect: CAN102
        self._streams.append(stream)

    # Buggy: cleanup only for ordinary exceptions.
    async def attach_checked(self, host: str, port: int) -> None:
        stream = await anyio.connect_tcp(host, port)
        try:
            await stream.send(b"HELLO\n")  # expect: CAN101
        except OSError:
            await stream.aclose()
            raise
        self._streams.append(stream)

    # Fine: in a module that runs under anyio's scopes alone, a cancelled
    # scope cancels again at the caller's next checkpoint; the None result
    # delays the cancellation, it does not drop it.
    async def receive_or_none(self) -> Any:
        try:
            return await self._source.receive()
        except anyio.get_cancelled_exc_class():
            return None

    # Buggy: a receive loop that catches the scope's cancellation and goes
    # round: every receive raises it again, and the loop never ends.
    async def receive_all(self) -> list[Any]:
        out: list[Any] = []
        while True:
            try:
                out.append(await self._source.receive())
            except anyio.get_cancelled_exc_class():  # expect: CAN401
                continue
            if len(out) > 100:
                return out
