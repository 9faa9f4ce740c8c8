"""Harbor: interactive shells on Harbor sandboxes, over the websocket gateway.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session gap CAN101, close_session gap CAN301, exec
no-window.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import aiohttp

log = logging.getLogger(__name__)


class HarborError(RuntimeError):
    """The gateway refused or timed out a session request."""


@dataclass
class HarborSession:
    """A live shell: its socket, the task reading it, the remote pid."""

    session_id: str
    ws: aiohttp.ClientWebSocketResponse
    reader: asyncio.Task
    process_id: int | None = None
    output: list[str] = field(default_factory=list)


class HarborProvider:
    """Opens, tracks and closes Harbor shell sessions."""

    def __init__(self, http: aiohttp.ClientSession, base_url: str, send_timeout: float = 10.0) -> None:
        self._http = http
        self._base_url = base_url.rstrip("/")
        self._send_timeout = send_timeout
        self._lock = asyncio.Lock()
        self._sessions: dict[str, HarborSession] = {}

    async def open_session(self, session_id: str, command: str) -> HarborSession:
        """Connect the session's pty socket, start its reader, run `command`.

        Gap: the cleanup for the unregistered socket and reader sits under
        `except asyncio.TimeoutError` and `except Exception`; a cancellation
        anywhere in the try (the send, the reply, the lock) skips both.
        """
        ws = await self._http.ws_connect(f"{self._base_url}/sessions/{session_id}/pty")
        reader = asyncio.create_task(self._pump_frames(session_id, ws))
        entry = HarborSession(session_id=session_id, ws=ws, reader=reader)
        try:
            await asyncio.wait_for(  # expect: CAN101
                ws.send_json({"type": "start", "command": command}),
                timeout=self._send_timeout,
            )
            reply = await ws.receive_json()
            entry.process_id = reply["pid"]
            async with self._lock:
                self._sessions[session_id] = entry
        except asyncio.TimeoutError as exc:
            reader.cancel()
            await ws.close()
            raise HarborError(f"session {session_id}: gateway did not accept the command") from exc
        except Exception:
            reader.cancel()
            await ws.close()
            raise
        log.debug("harbor session %s started", session_id)
        return entry

    async def close_session(self, session_id: str) -> None:
        """Ask the shell to exit, then close its socket.

        Gap: the entry leaves the registry first; a cancellation during the
        exit message leaves the socket and the reader with no owner.
        """
        async with self._lock:
            entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        await entry.ws.send_json({"type": "exit"})  # expect: CAN301
        entry.reader.cancel()
        await entry.ws.close()

    async def exec(self, cmd: str) -> str:
        """Run one command through the REST endpoint (nothing to own)."""
        async with self._http.post(f"{self._base_url}/exec", json={"command": cmd}) as resp:
            resp.raise_for_status()
            body = await resp.json()
        return body["output"]

    async def _pump_frames(self, session_id: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            entry = self._sessions.get(session_id)
            if entry is not None:
                entry.output.append(msg.data)
