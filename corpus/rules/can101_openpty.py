"""CAN101: pseudo-terminal descriptors closed only under ``except Exception``.

``os.openpty()`` returns two file descriptors. If the task is cancelled while
``create_subprocess_exec`` is starting the child, ``except Exception`` does
not run and both descriptors leak for the life of the process.
"""

import asyncio
import os
import pty
from typing import Any


class PtyHost:
    def __init__(self) -> None:
        self._ptys: dict[str, tuple[Any, int]] = {}

    # Buggy: both fds are closed only for ordinary exceptions.
    async def spawn_shell(self, key: str, argv: list[str]) -> Any:
        master, slave = os.openpty()
        try:
            proc = await asyncio.create_subprocess_exec(  # expect: CAN101
                *argv,
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
        self._ptys[key] = (proc, master)
        return proc

    # Buggy: the same with the pty module's helper and an OSError handler.
    async def spawn_login(self, key: str) -> Any:
        master, slave = pty.openpty()
        try:
            proc = await asyncio.create_subprocess_exec(  # expect: CAN101
                "/bin/login", stdin=slave, stdout=slave, stderr=slave
            )
        except OSError:
            os.close(master)
            os.close(slave)
            raise
        os.close(slave)
        self._ptys[key] = (proc, master)
        return proc

    # Fine: the same code with `except BaseException` closes the descriptors on
    # cancellation too, and re-raises.
    async def spawn_shell_fixed(self, key: str, argv: list[str]) -> Any:
        master, slave = os.openpty()
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave
            )
        except BaseException:
            os.close(master)
            os.close(slave)
            raise
        os.close(slave)
        self._ptys[key] = (proc, master)
        return proc
