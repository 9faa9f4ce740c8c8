"""CAN101: an HTTP session and the websocket opened from it.

``ws`` comes from a method of the owned ``session``; it is owned through its
parent as well, so closing the session in the handler releases both. Each of
them has its own window, and each misses cancellation.
"""

from typing import Any

import aiohttp


class Gateway:
    def __init__(self, base_url: str) -> None:
        self._base_url = base_url
        self._links: dict[str, tuple[aiohttp.ClientSession, Any]] = {}

    # Buggy: the session's window starts at ws_connect, the child's at the
    # wait for the server's greeting; the only cleanup is under `except Exception`.
    async def open_link(self, key: str, token: str) -> Any:
        session = aiohttp.ClientSession(base_url=self._base_url)
        try:
            ws = await session.ws_connect(f"/links/{key}")  # expect: CAN101
            await ws.receive_json()  # expect: CAN101
            await ws.send_json({"token": token})
        except Exception:
            await session.close()
            raise
        self._links[key] = (session, ws)
        return ws

    # Buggy: only the session is live across the window (ws_connect is the
    # last checkpoint before the hand-over), handler catches Exception only.
    async def open_link_quiet(self, key: str) -> Any:
        session = aiohttp.ClientSession(base_url=self._base_url)
        try:
            ws = await session.ws_connect(f"/links/{key}")  # expect: CAN101
        except Exception:
            await session.close()
            raise
        self._links[key] = (session, ws)
        return ws

    # Fine: the same shape with `except BaseException` + re-raise.
    async def open_link_fixed(self, key: str, token: str) -> Any:
        session = aiohttp.ClientSession(base_url=self._base_url)
        try:
            ws = await session.ws_connect(f"/links/{key}")
            await ws.send_json({"token": token})
        except BaseException:
            await session.close()
            raise
        self._links[key] = (session, ws)
        return ws

    # Fine: the session is owned by `async with` for the whole exchange.
    async def probe(self, key: str) -> bool:
        async with aiohttp.ClientSession(base_url=self._base_url) as session:
            ws = await session.ws_connect(f"/links/{key}")
            await ws.send_str("ping")
            reply = await ws.receive_str()
        return reply == "pong"

