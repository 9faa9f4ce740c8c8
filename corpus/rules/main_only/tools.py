"""A one-shot tool: what its main coroutine holds when the user interrupts it.

`asyncio.run(_tool_main(...))` is cancelled only by the user's interrupt,
which ends the process: a child or a session no cleanup of the function
covers goes with the process (CAN102's window closes with it). A cleanup
that misses cancellation shows the author meant to release the value on
the way out (`except KeyboardInterrupt:`, which never sees the interrupt
once it comes as a cancellation): that window stays (CAN101). So does a
remote object, which outlives the process, and any window of a function
also awaited under a timeout, whose expiry cancels it while the program
goes on.
"""

import asyncio
import sys
from typing import Any

from modal import Sandbox


# Fine: a child of the tool's main; the interrupt ends the process.
async def _convert(path: str) -> bytes:
    proc = await asyncio.create_subprocess_exec("convert", path, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return out


# Buggy twin: the author's cleanup is for the interrupt, which arrives as a
# cancellation and skips it.
async def _serve_preview(path: str) -> None:
    proc = await asyncio.create_subprocess_exec("preview", path)
    try:
        await proc.wait()  # expect: CAN101
    except KeyboardInterrupt:
        proc.terminate()
        raise


# Buggy twin: the cloud sandbox outlives the process.
async def _provision(name: str) -> None:
    sandbox = await Sandbox.create("sleep", "infinity", name=name)
    await sandbox.wait_ready()  # expect: CAN102
    await sandbox.terminate()


# Buggy twin: also awaited under a timeout by `convert_with_deadline`.
async def _render(path: str) -> bytes:
    proc = await asyncio.create_subprocess_exec("render", path, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()  # expect: CAN102
    return out


async def convert_with_deadline(path: str) -> bytes:
    return await asyncio.wait_for(_render(path), timeout=30)


async def _tool_main(api: Any, path: str) -> int:
    await _convert(path)
    await _serve_preview(path)
    await _provision(path)
    await _render(path)
    return 0


def main() -> None:
    sys.exit(asyncio.run(_tool_main(None, sys.argv[1])))
