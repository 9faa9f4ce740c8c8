"""Quarry: local shells on a pseudo-terminal, for development machines.

Synthetic backend for the cancelaudit corpus. Expected cells (see
../README.md): open_session gap CAN101 + CAN102, close_session no-window,
exec absent.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass


@dataclass
class QuarrySession:
    """A local shell: the child process, the pty master, the reader task."""

    session_id: str
    process: asyncio.subprocess.Process
    master_fd: int
    reader: asyncio.Task


class QuarryProvider:
    """Runs shells as local child processes attached to a pty."""

    def __init__(self, shell: str = "/bin/bash") -> None:
        self._shell = shell
        self._lock = asyncio.Lock()
        self._sessions: dict[str, QuarrySession] = {}
        self._output: dict[str, bytearray] = {}

    async def open_session(self, session_id: str, command: str) -> QuarrySession:
        """Start a shell on a fresh pty and type `command` into it.

        Gap, twice: the pty descriptors are closed only under
        `except Exception` while the child starts (CAN101), and the registry
        insert waits for the lock with no handler at all, while the process,
        the master fd and the reader task belong to nobody (CAN102).
        """
        master, slave = os.openpty()
        try:
            proc = await asyncio.create_subprocess_exec(  # expect: CAN101
                self._shell,
                "-i",
                stdin=slave,
                stdout=slave,
                stderr=slave,
                start_new_session=True,
            )
        except Exception:
            os.close(master)
            os.close(slave)
            raise
        os.close(slave)
        reader = asyncio.create_task(self._read_pty(session_id, master))
        os.write(master, command.encode() + b"\n")
        entry = QuarrySession(session_id=session_id, process=proc, master_fd=master, reader=reader)
        async with self._lock:  # expect: CAN102
            self._sessions[session_id] = entry
        return entry

    async def close_session(self, session_id: str) -> None:
        """Forget the session and reap it in a shielded task.

        No window: the entry goes straight from the registry into a shielded
        teardown, which a cancellation of this call cannot interrupt.
        """
        entry = self._sessions.pop(session_id, None)
        if entry is None:
            return
        await asyncio.shield(self._reap(entry))

    async def _read_pty(self, session_id: str, fd: int) -> None:
        loop = asyncio.get_running_loop()
        buf = self._output.setdefault(session_id, bytearray())
        while True:
            chunk = await loop.run_in_executor(None, os.read, fd, 4096)
            if not chunk:
                return
            buf.extend(chunk)

    async def _reap(self, entry: QuarrySession) -> None:
        entry.reader.cancel()
        try:
            entry.process.terminate()
            await asyncio.wait_for(entry.process.wait(), timeout=5)
        except ProcessLookupError:
            pass
        except asyncio.TimeoutError:
            entry.process.kill()
            await entry.process.wait()
        finally:
            os.close(entry.master_fd)
