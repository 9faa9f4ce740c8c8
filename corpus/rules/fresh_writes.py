"""The first write on a connection the function just opened, awaited
directly, goes into an empty buffer: aiohttp's websocket writer waits for a
drain only once its output passes the limit, so `await ws.send_str(hello)`
right after `ws_connect` returns without suspending and no cancellation can
land there. A `wait_for` around the write suspends on its own (it runs the
write as a task before Python 3.12); a read waits for the peer; a write in
a loop, or after another await on the connection, may find the buffer full.
"""

import asyncio
from typing import Any


class Links:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._open: dict[str, Any] = {}

    # Fine: the hello cannot suspend, so the socket is registered before
    # any cancellation can be delivered.
    async def open(self, name: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await ws.send_json({"hello": name})
        except Exception:
            await ws.close()
            raise
        self._open[name] = ws
        return ws

    # Buggy twin: wait_for runs the write as a task and suspends.
    async def open_bounded(self, name: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await asyncio.wait_for(ws.send_json({"hello": name}), timeout=5)  # expect: CAN101
        except Exception:
            await ws.close()
            raise
        self._open[name] = ws
        return ws

    # Buggy twin: the second write comes after an await on the socket.
    async def open_chatty(self, name: str, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await ws.send_json({"hello": name})
            await ws.receive_json()  # expect: CAN101
            await ws.send_json({"ready": name})
        except Exception:
            await ws.close()
            raise
        self._open[name] = ws
        return ws

    # Buggy twin: writes in a loop may find the buffer full.
    async def open_streaming(self, name: str, url: str, chunks: list) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            for chunk in chunks:
                await ws.send_bytes(chunk)  # expect: CAN101
        except Exception:
            await ws.close()
            raise
        self._open[name] = ws
        return ws


# The same holds for the websockets library: `send` of one message on an
# open connection writes it to the transport and waits only if the
# transport is paused. The connect may come through a `wait_for`.
import websockets  # noqa: E402


class SocketRelays:
    def __init__(self) -> None:
        self.live: Any = None

    # Fine: the config frame cannot suspend; the socket is stored first.
    async def dial(self, url: str, config: str) -> Any:
        sock = await asyncio.wait_for(websockets.connect(url), timeout=10.0)
        await sock.send(config)
        self.live = sock
        return sock

    # Buggy twin: waiting for the peer's answer is a checkpoint.
    async def dial_and_wait(self, url: str, config: str) -> Any:
        sock = await websockets.connect(url)
        await sock.send(config)
        await sock.recv()  # expect: CAN102
        self.live = sock
        return sock
