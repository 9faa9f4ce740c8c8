"""Several exception classes without brackets (Python 3.14, PEP 758).

`except ConnectionError, asyncio.CancelledError:` catches both classes, as
`except (ConnectionError, asyncio.CancelledError):` does. Read as Python 2's
`except ConnectionError, name:` it would catch only the first, and a
handler that catches the task's cancellation would look like one that
does not.
"""

import asyncio
from typing import Any


# Buggy: the second class is the cancellation, and the handler drops it.
async def read_frame(sock: Any) -> Any:
    try:
        return await sock.recv()
    except ConnectionError, asyncio.CancelledError:  # expect: CAN401
        return None


# Fine: the cleanup catches the cancellation through the second class, and
# raises it again.
async def run_command(argv: "list[str]") -> int:
    proc = await asyncio.create_subprocess_exec(*argv)
    try:
        return await proc.wait()
    except OSError, asyncio.CancelledError:
        proc.kill()
        raise


# Buggy twin: neither class is the cancellation, so the kill is skipped
# when the wait is cancelled.
async def run_command_unguarded(argv: "list[str]") -> int:
    proc = await asyncio.create_subprocess_exec(*argv)
    try:
        return await proc.wait()  # expect: CAN101
    except OSError, ValueError:
        proc.kill()
        raise
