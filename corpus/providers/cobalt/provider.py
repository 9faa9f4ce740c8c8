"""Cobalt: shells and batch jobs on the Cobalt compute API.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session covered (finally), close_session no-window,
exec gap CAN201.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any


@dataclass
class CobaltSession:
    """A shell: its socket, the listener task, the remote pid."""

    session_id: str
    ws: Any
    listener: asyncio.Task
    process_id: int | None = None


class CobaltProvider:
    """Interactive sessions over websockets, one-shot commands as jobs."""

    def __init__(self, client: Any, api: Any, base_url: str, job_timeout: float = 120.0) -> None:
        self._client = client
        self._api = api
        self._base_url = base_url
        self._job_timeout = job_timeout
        self._lock = asyncio.Lock()
        self._sessions: dict[str, CobaltSession] = {}
        self._events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    async def open_session(self, session_id: str, command: str) -> CobaltSession:
        """Connect, start listening, spawn `command`, register.

        Covered: `finally` releases the socket and the listener unless the
        registered flag says the registry took them over.
        """
        ws = await self._client.ws_connect(f"{self._base_url}/shell/{session_id}")
        listener = asyncio.create_task(self._listen(session_id, ws))
        entry = CobaltSession(session_id=session_id, ws=ws, listener=listener)
        registered = False
        try:
            await ws.send_json({"kind": "spawn", "argv": ["/bin/sh", "-c", command]})
            entry.process_id = (await ws.receive_json())["pid"]
            async with self._lock:
                self._sessions[session_id] = entry
            registered = True
        finally:
            if not registered:
                listener.cancel()
                await ws.close()
        return entry

    async def close_session(self, session_id: str) -> None:
        """Shut the session down, then drop it from the registry.

        No window: the registry owns the entry until the teardown finished.
        """
        entry = self._sessions.get(session_id)
        if entry is None:
            return
        await self._shutdown_entry(entry)
        self._sessions.pop(session_id, None)

    async def exec(self, cmd: str) -> Any:
        """Run `cmd` as a batch job and return its result.

        Gap: the job is created under wait_for; when the deadline passes the
        create request is cancelled, but the API may still start the job,
        and its id is lost.
        """
        job = await asyncio.wait_for(self._api.create_job(command=cmd), timeout=self._job_timeout)  # expect: CAN201
        try:
            return await job.result()
        finally:
            await job.delete()

    async def _listen(self, session_id: str, ws: Any) -> None:
        async for msg in ws:
            self._events.put_nowait((session_id, msg.data))

    async def _shutdown_entry(self, entry: CobaltSession) -> None:
        entry.listener.cancel()
        await entry.ws.close()
