"""Objects of classes from a module the prefilter skips."""

import asyncio
from typing import Any

from .records import Channel, Tally


class Service:
    def __init__(self) -> None:
        self._channels: list[Any] = []
        self._tallies: list[Any] = []

    # Correct: a Tally owns nothing, so its close() in the handler is
    # bookkeeping, not a release that cancellation skips.
    async def count(self, names: list[str]) -> Tally:
        tally = Tally()
        try:
            for name in names:
                tally.note(name)
                await asyncio.sleep(0)
        except Exception:
            tally.close()
            raise
        self._tallies.append(tally)
        return tally

    # Buggy: a Channel owns a socket, released only on ordinary errors.
    async def open(self, host: str, port: int) -> Channel:
        channel = Channel(host, port)
        try:
            await asyncio.sleep(0.1)  # expect: CAN101
        except Exception:
            channel.close()
            raise
        self._channels.append(channel)
        return channel
