"""Tidewater: shells on Tidewater VMs over multiplexed channels.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session covered (except CancelledError), close_session
covered (finally), exec absent. The channel helper lives in transport.py,
the backend's second module.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .transport import open_channel


class TidewaterError(RuntimeError):
    """A channel could not be set up."""


@dataclass
class TidewaterSession:
    """A shell: its channel, the task following it, the remote pid."""

    session_id: str
    channel: Any
    reader: asyncio.Task
    process_id: int | None = None


class TidewaterProvider:
    """Shell sessions multiplexed over one Tidewater client."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = asyncio.Lock()
        self._sessions: dict[str, TidewaterSession] = {}
        self._output: dict[str, list[bytes]] = {}

    async def open_session(self, session_id: str, command: str) -> TidewaterSession:
        """Open a channel, follow its output, and start `command`.

        Covered: an explicit `except asyncio.CancelledError` releases and
        re-raises; ordinary errors have their own handler.
        """
        channel = await open_channel(self._client, session_id)
        reader = asyncio.create_task(self._follow_channel(session_id, channel))
        entry = TidewaterSession(session_id=session_id, channel=channel, reader=reader)
        try:
            await channel.write(f"{command}\n".encode())
            entry.process_id = await channel.read_pid()
            async with self._lock:
                self._sessions[session_id] = entry
        except asyncio.CancelledError:
            reader.cancel()
            await channel.close()
            raise
        except Exception as exc:
            reader.cancel()
            await channel.close()
            raise TidewaterError(f"could not start session {session_id}") from exc
        return entry

    async def close_session(self, session_id: str) -> None:
        """Send `exit`, then terminate the channel whatever happens.

        Covered: the exit message is inside a try whose `finally` hands the
        entry to a shielded teardown.
        """
        entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        try:
            await entry.channel.write(b"exit\n")
        finally:
            await asyncio.shield(self._terminate(entry))

    async def _follow_channel(self, session_id: str, channel: Any) -> None:
        chunks = self._output.setdefault(session_id, [])
        while True:
            data = await channel.read()
            if not data:
                return
            chunks.append(data)

    async def _terminate(self, entry: TidewaterSession) -> None:
        entry.reader.cancel()
        await entry.channel.close()
