"""A connection wrapped around a stream the function was handed.

A server's handler gets its stream from the listener that accepted it; the
listener closes it when the handler ends, however it ends. A connection
object the handler builds around that stream, which the handler closes by
itself on one path (`await stream.aclose()` when the handshake times out),
is the caller's resource wearing a wrapper: a cancellation before the
handler's own try leaves it to that owner. The same wrapper around a stream
the function opened itself is the function's to close.
"""

import trio


class Connection:
    def __init__(self, stream: trio.abc.Stream) -> None:
        self._stream = stream

    async def read_request(self) -> bytes:
        return await self._stream.receive_some()

    async def aclose(self) -> None:
        await self._stream.aclose()


# Fine: the listener that handed the stream over closes it.
async def handle_connection(handler, stream: trio.abc.Stream) -> None:
    connection = Connection(stream)
    with trio.move_on_after(5) as scope:
        request = await connection.read_request()
    if scope.cancelled_caught:
        await stream.aclose()
        return
    try:
        await handler(request)
    finally:
        await connection.aclose()


# Buggy: the stream is opened here, and the wrapper is all that holds it
# until the try.
async def open_connection(handler, host: str, port: int) -> None:
    stream = await trio.open_tcp_stream(host, port)
    connection = Connection(stream)
    request = await connection.read_request()  # expect: CAN102
    try:
        await handler(request)
    finally:
        await connection.aclose()
