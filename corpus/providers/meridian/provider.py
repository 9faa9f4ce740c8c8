"""Meridian: shells on Meridian edge nodes.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session covered (exit stack), close_session covered
(except BaseException + shield), exec covered (context manager).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

import aiohttp


@dataclass
class MeridianSession:
    """A shell: its connection, the consumer task, the remote pid."""

    session_id: str
    conn: Any
    consumer: asyncio.Task
    process_id: int | None = None


class MeridianProvider:
    """Shell sessions built on an exit stack that is disarmed once registered."""

    def __init__(self, client: Any, base_url: str) -> None:
        self._client = client
        self._base_url = base_url
        self._lock = asyncio.Lock()
        self._sessions: dict[str, MeridianSession] = {}
        self._lines: dict[str, list[str]] = {}

    async def open_session(self, session_id: str, command: str) -> MeridianSession:
        """Connect, start the consumer, run `command`, register.

        Covered: each resource is pushed onto an AsyncExitStack as soon as it
        exists; `pop_all()` disarms the stack only after the registry owns
        everything, so any interruption before that unwinds it.
        """
        async with contextlib.AsyncExitStack() as stack:
            conn = await self._client.connect(f"/sessions/{session_id}")
            stack.push_async_callback(conn.close)
            consumer = asyncio.create_task(self._consume(session_id, conn))
            stack.push_async_callback(self._stop_consumer, consumer)
            await conn.send(command)
            entry = MeridianSession(session_id=session_id, conn=conn, consumer=consumer)
            entry.process_id = await conn.recv_pid()
            async with self._lock:
                self._sessions[session_id] = entry
            stack.pop_all()
        return entry

    async def close_session(self, session_id: str) -> None:
        """Say goodbye, then tear the session down, shielded in every case.

        Covered: the goodbye sits in a try whose `except BaseException`
        settles the teardown under a shield before re-raising.
        """
        async with self._lock:
            entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        try:
            await entry.conn.send("exit")
        except BaseException:
            await asyncio.shield(self._stop_entry(entry))
            raise
        await asyncio.shield(self._stop_entry(entry))

    async def exec(self, cmd: str) -> str:
        """Run `cmd` on a short-lived connection of its own.

        Covered: the HTTP session's context manager owns it, and the
        websocket opened from it, across every await.
        """
        chunks: list[str] = []
        async with aiohttp.ClientSession(base_url=self._base_url) as http:
            ws = await http.ws_connect("/exec")
            await ws.send_json({"command": cmd})
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.CLOSE:
                    break
                chunks.append(msg.data)
        return "".join(chunks)

    async def _consume(self, session_id: str, conn: Any) -> None:
        lines = self._lines.setdefault(session_id, [])
        async for line in conn:
            lines.append(line)

    async def _stop_consumer(self, consumer: asyncio.Task) -> None:
        consumer.cancel()
        try:
            await consumer
        except asyncio.CancelledError:
            pass

    async def _stop_entry(self, entry: MeridianSession) -> None:
        await self._stop_consumer(entry.consumer)
        await entry.conn.close()
