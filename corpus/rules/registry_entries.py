"""Entries a registry of self keeps.

`seen = self._seen.setdefault(peer, set())` hands back the entry the
dict keeps, new or old, as `self._seen[peer]` does: it is self's, not a
value this call made, and emptying it again on failure (`seen.discard(t)`)
releases nothing. A value the function made itself and releases only
under `except Exception` is still reported.
"""

import asyncio
from typing import Any


class Replayer:
    def __init__(self, router: Any) -> None:
        self._router = router
        self._seen: dict = {}

    # Fine: the set belongs to self._seen.
    async def replay(self, peer: str, topic: str) -> None:
        seen = self._seen.setdefault(peer, set())
        if topic in seen:
            return
        seen.add(topic)
        try:
            await self._router.send_recent(peer, topic)
        except Exception:
            seen.discard(topic)

    # Buggy: the stream is the function's own, closed only on errors.
    async def announce(self, peer: str) -> None:
        stream = await self._router.open_stream(peer)
        try:
            await stream.write(b"hello")  # expect: CAN101
        except Exception:
            await stream.close()
            raise
        self._router.keep(stream)
