"""The interface of the shell backends: an ABC whose subclasses are the
family (corpus/families/README.md). It implements close_session and run
for every subclass that does not override them: their cells are
`inherited`, judged from this code.
"""

from __future__ import annotations

import abc
import asyncio
from typing import Any


class BaseShell(abc.ABC):
    """Interactive shells on a remote host."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = asyncio.Lock()
        self._sessions: dict[str, Any] = {}

    @abc.abstractmethod
    async def open_session(self, session_id: str, command: str) -> Any:
        """Connect a session, start `command`, register the session."""

    async def close_session(self, session_id: str) -> None:
        """The default teardown: the entry leaves the registry first, so a
        cancellation during the exit message abandons its socket."""
        async with self._lock:
            entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        await entry.ws.send_json({"type": "exit"})  # expect: CAN301
        entry.reader.cancel()
        await entry.ws.close()

    async def run(self, command: str) -> str:
        """One command; nothing to own."""
        return await self._exec(command)

    @abc.abstractmethod
    async def _exec(self, command: str) -> str:
        """Run one command on the host."""
