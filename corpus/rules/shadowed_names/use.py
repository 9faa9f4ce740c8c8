"""`open_stream` here is a parameter: calling it is calling whatever the
caller passed, not `helpers.open_stream`, so what it returns is judged as
an unknown maker's result (the name says it opens something)."""

import asyncio
from typing import Any


# Buggy: the stream from the caller's opener is closed on errors only.
async def fetch(open_stream: Any, url: str) -> bytes:
    stream = await open_stream(url)
    try:
        data = await stream.read()  # expect: CAN101
    except Exception:
        await stream.aclose()
        raise
    await stream.aclose()
    return data


# Fine: the same, closed on cancellation too.
async def fetch_closed(open_stream: Any, url: str) -> bytes:
    stream = await open_stream(url)
    try:
        return await stream.read()
    finally:
        await stream.aclose()


# Buggy: `asyncio.wait` is asyncio's, not helpers.wait (which never
# suspends): the child is running, unowned, while it waits.
async def run_until_first(cmd: list, a: Any, b: Any) -> None:
    proc = await asyncio.create_subprocess_exec(*cmd)
    await asyncio.wait({a, b}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    proc.kill()
    await proc.wait()
