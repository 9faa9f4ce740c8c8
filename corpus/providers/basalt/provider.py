"""Basalt: shells on Basalt build hosts, over the v2 shell websocket.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session covered (except BaseException + shield),
close_session no-window, exec absent.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class BasaltSession:
    """A shell: its socket, the relay task, the remote pid."""

    session_id: str
    ws: Any
    relay: asyncio.Task
    process_id: int | None = None


class BasaltProvider:
    """Shell sessions whose cleanup survives repeated cancellation."""

    def __init__(self, client: Any, sink: Any) -> None:
        self._client = client
        self._sink = sink
        self._lock = asyncio.Lock()
        self._sessions: dict[str, BasaltSession] = {}

    async def open_session(self, session_id: str, command: str) -> BasaltSession:
        """Connect, start relaying output, run `command`, register.

        Covered and settled: on any BaseException the teardown runs as its own
        task, re-awaited through a shield until it is done; a cancellation
        that arrives meanwhile is kept and re-raised afterwards.
        """
        ws = await self._client.ws_connect(f"/v2/shells/{session_id}")
        relay = asyncio.create_task(self._relay(session_id, ws))
        entry = BasaltSession(session_id=session_id, ws=ws, relay=relay)
        try:
            await ws.send_bytes(command.encode())
            entry.process_id = int(await ws.receive_str())
            async with self._lock:
                self._sessions[session_id] = entry
        except BaseException:
            cleanup = asyncio.ensure_future(self._discard(entry))
            interrupted: asyncio.CancelledError | None = None
            while not cleanup.done():
                try:
                    await asyncio.shield(cleanup)
                except asyncio.CancelledError as exc:
                    interrupted = exc
            if interrupted is not None:
                raise interrupted
            raise
        return entry

    async def close_session(self, session_id: str) -> None:
        """Unregister, then tear down in a shielded task.

        No window: the entry is handed to the shielded teardown as soon as
        it leaves the registry.
        """
        async with self._lock:
            entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        await asyncio.shield(self._discard(entry))

    async def _relay(self, session_id: str, ws: Any) -> None:
        async for frame in ws:
            await self._sink.put((session_id, frame.data))

    async def _discard(self, entry: BasaltSession) -> None:
        entry.relay.cancel()
        try:
            await entry.ws.close()
        except Exception:
            log.warning("basalt session %s: close failed", entry.session_id)
