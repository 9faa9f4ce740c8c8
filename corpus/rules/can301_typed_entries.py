"""Entries of a registry the class annotates, closed one by one (CAN301).

`self._active: dict[str, Session]` names the class of what a loop over
`list(self._active.values())` binds: `await session.close()` is
`Session.close`, whose summary says whether it can suspend. A close that
only drops references returns at once, so a cancellation cannot land
between two entries; one that waits for its connection to close can.
"""

import asyncio


class Session:
    def __init__(self, agent) -> None:
        self.agent = agent
        self.closed = False

    async def close(self) -> None:
        self.closed = True
        self.agent = None


class Channel:
    def __init__(self, ws) -> None:
        self.ws = ws

    async def close(self) -> None:
        await self.ws.close()


class Registry:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._active: dict[str, Session] = {}
        self._channels: dict[str, Channel] = {}

    # Fine: Session.close suspends nowhere.
    async def close_sessions(self) -> None:
        async with self._lock:
            sessions = list(self._active.values())
            self._active.clear()
        for session in sessions:
            await session.close()

    # Buggy: Channel.close waits for the socket; a cancellation there
    # abandons every channel after it.
    async def close_channels(self) -> None:
        channels = list(self._channels.values())
        self._channels.clear()
        for channel in channels:
            await channel.close()  # expect: CAN301
