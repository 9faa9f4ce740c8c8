"""Tidewater channel setup: a second module of the tidewater backend.

`open_channel` hands the channel it opens straight back to its caller, so it
has no window of its own; the caller owns the channel from the call on.
"""

from __future__ import annotations

import asyncio
from typing import Any


class ChannelRefused(ConnectionError):
    """The VM refused every attempt to open a channel."""


async def open_channel(client: Any, session_id: str, *, retries: int = 3) -> Any:
    """Open a channel for `session_id`, retrying refusals with backoff."""
    delay = 0.2
    for attempt in range(retries):
        try:
            return await client.channels.open(session_id=session_id)
        except ConnectionRefusedError:
            if attempt == retries - 1:
                break
            await asyncio.sleep(delay)
            delay *= 2
    raise ChannelRefused(f"no channel for session {session_id}")
