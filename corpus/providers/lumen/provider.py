"""Lumen: terminals on Lumen workspaces through the Lumen SDK.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session covered (except BaseException), close_session
no-window, exec covered (except BaseException). The backend's second module,
mounts.py, belongs to it as well.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from .mounts import LumenMounts


@dataclass
class LumenSession:
    """A terminal: websocket, output task, remote pid."""

    session_id: str
    ws: Any
    reader: asyncio.Task
    process_id: int | None = None


@dataclass
class ExecResult:
    exit_code: int
    output: bytes


class LumenProvider:
    """Terminal sessions and one-shot commands on a Lumen workspace."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = asyncio.Lock()
        self._sessions: dict[str, LumenSession] = {}
        self._output: dict[str, list[str]] = {}
        self.mounts = LumenMounts(client)

    async def open_session(self, session_id: str, command: str) -> LumenSession:
        """Open a terminal and start `command` in it.

        Covered: `except BaseException` cancels the reader, closes the socket
        and re-raises, whatever interrupted the hand-over.
        """
        ws = await self._client.connect_terminal(session_id)
        reader = asyncio.create_task(self._drain_output(session_id, ws))
        entry = LumenSession(session_id=session_id, ws=ws, reader=reader)
        try:
            await ws.send(json.dumps({"op": "run", "command": command}))
            ack = json.loads(await ws.recv())
            entry.process_id = ack["pid"]
            async with self._lock:
                self._sessions[session_id] = entry
        except BaseException:
            reader.cancel()
            await ws.close()
            raise
        return entry

    async def close_session(self, session_id: str) -> None:
        """Tear the terminal down, then forget it.

        No window: the registry keeps the entry until the teardown is over,
        so an interrupted close can simply be retried.
        """
        entry = self._sessions.get(session_id)
        if entry is None:
            return
        await self._dispose(entry)
        del self._sessions[session_id]

    async def exec(self, cmd: str) -> ExecResult:
        """Run `cmd` as a remote process and collect its output."""
        proc = await self._client.spawn_process(cmd)
        try:
            output = await proc.read_all()
            code = await proc.wait()
        except BaseException:
            await proc.kill()
            raise
        return ExecResult(exit_code=code, output=output)

    async def _drain_output(self, session_id: str, ws: Any) -> None:
        lines = self._output.setdefault(session_id, [])
        async for frame in ws:
            lines.append(frame)

    async def _dispose(self, entry: LumenSession) -> None:
        entry.reader.cancel()
        await entry.ws.close()
