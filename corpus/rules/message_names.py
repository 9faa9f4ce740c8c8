"""Names that send a message about a release.

`await self._send_stop_status(stream, record)` sends a STOP status; the
word "stop" in it names the message, not a release of what it is handed.
So a record built for that message and handed to the same call in an
`except Exception` handler is no resource. A call whose name says it
releases (`self._close_stream(stream)`) still is the cleanup of what it
is handed.
"""

from typing import Any


def build_record(host: Any) -> Any:
    return host.signed_record()


class Relay:
    def __init__(self, host: Any) -> None:
        self._host = host

    async def _send_stop_status(self, stream: Any, status: int, record: Any) -> None:
        await stream.write(bytes([status]) + record.raw)

    async def _close_stream(self, stream: Any) -> None:
        await stream.close()

    # Fine: the record only travels in the status message.
    async def reject(self, stream: Any) -> None:
        try:
            record = build_record(self._host)
            await self._send_stop_status(stream, 1, record)
        except Exception:
            record = build_record(self._host)
            await self._send_stop_status(stream, 2, record)

    # Buggy: the stream opened here is closed only on errors.
    async def dial(self, peer: Any) -> Any:
        stream = await self._host.new_stream(peer)
        try:
            await stream.write(b"connect")  # expect: CAN101
        except Exception:
            await self._close_stream(stream)
            raise
        return stream
