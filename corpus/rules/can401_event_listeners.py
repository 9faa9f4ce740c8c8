"""Coroutine listeners an event emitter runs.

`self._pc.add_listener("track", self._on_track)` hands the coroutine
function to the emitter, which runs it as a task of its own: the loop that
ends quietly on cancellation is that task's stop. The twin is registered
too but also awaited directly by `replay`, where the cancellation it
swallows is the caller's.
"""

import asyncio
from typing import Any


class Session:
    def __init__(self, pc: Any) -> None:
        self._pc = pc
        self._frames: list[Any] = []
        pc.add_listener("track", self._on_track)
        pc.on("datachannel", self._on_channel)

    # Fine: run by the emitter only.
    async def _on_track(self, track: Any) -> None:
        while True:
            try:
                frame = await track.recv()
            except asyncio.CancelledError:
                break
            self._frames.append(frame)

    async def _on_channel(self, channel: Any) -> None:
        while True:
            try:
                msg = await channel.recv()
            except asyncio.CancelledError:  # expect: CAN401
                break
            self._frames.append(msg)

    async def replay(self, channel: Any) -> None:
        await self._on_channel(channel)
