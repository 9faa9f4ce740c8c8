"""A function nested in a method reads `self`'s attributes as the method does.

``async def _on_close(): async with self._lock: pub = self._pubs.pop(k)`` in
a method of a class that assigns ``self._lock = asyncio.Lock()``: the
closure's ``self`` is the method's, so leaving that lock never suspends and
the entry taken out under it is released at once after. A lock handed in
from outside (``self._ext_lock = lock``) may suspend on exit: the entry is
out of the registry across that exit.
"""

import asyncio
from typing import Any, Dict


class PublisherRegistry:
    def __init__(self, shared_lock: Any) -> None:
        self._lock = asyncio.Lock()
        self._ext_lock = shared_lock
        self._pubs: Dict[str, Any] = {}

    def watch(self, key: str, state: Any) -> None:
        async def _on_close() -> None:
            async with self._lock:
                pub = self._pubs.pop(key, None)
            if pub is None:
                return
            await pub.stop()

        state.on_close(_on_close)

    def watch_shared(self, key: str, state: Any) -> None:
        async def _on_close() -> None:
            async with self._ext_lock:  # expect: CAN301
                pub = self._pubs.pop(key, None)
            if pub is None:
                return
            await pub.stop()

        state.on_close(_on_close)
