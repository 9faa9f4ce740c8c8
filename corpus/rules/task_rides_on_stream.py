"""A task that works only on a stream the cleanup closes.

`reader = create_task(pump(ws))` with `finally: await ws.close()` around
the wait: when the wait is cancelled, the finally closes the websocket and
the pump, reading it, ends on the closed socket. The twin's pump also reads
a stream the function was handed, which nothing here closes: it can stay
blocked there. A value the function was handed (a parameter) counts when a
cleanup around the checkpoint closes it: a finally, a handler that catches
cancellation, or the cleanup the checkpoint is in, before it; so does one
of the function's own that the path has already let go.
"""

import asyncio
from typing import Any


class Feed:
    def __init__(self) -> None:
        self.messages: list = []

    async def pump(self, ws: Any) -> None:
        async for msg in ws:
            self.messages.append(msg)

    async def listen(self, session: Any, url: str) -> None:
        ws = await session.ws_connect(url)
        try:
            reader = asyncio.create_task(self.pump(ws))
            # Fine: the reader ends when the finally closes ws.
            await asyncio.wait([reader], timeout=30)
            reader.cancel()
        finally:
            await ws.close()


async def forward(src: Any, ws: Any) -> None:
    while line := await src.readline():
        await ws.send(line)


async def bridge(session: Any, url: str, stdin: Any) -> None:
    ws = await session.ws_connect(url)
    try:
        out = asyncio.create_task(forward(stdin, ws))
        # Buggy twin: out may stay blocked reading stdin after ws closes.
        await asyncio.wait([out], timeout=30)  # expect: CAN102
        out.cancel()
    finally:
        await ws.close()


# A child process the function was handed: the handler that catches the
# cancellation kills it, and the reader of its stderr ends at the pipe's
# end.
async def converse(proc: Any, prompt: bytes) -> bytes:
    errors = asyncio.create_task(proc.stderr.read())
    try:
        # Fine: a cancellation here kills the child, and errors with it.
        out = await proc.communicate(prompt)
    except BaseException:
        proc.kill()
        raise
    await errors
    return out


# Buggy twin: the handler sees only ordinary errors; cancelled, the child
# lives on, and the reader of its stderr with it.
async def converse_loosely(proc: Any, prompt: bytes) -> bytes:
    errors = asyncio.create_task(proc.stderr.read())
    try:
        out = await proc.communicate(prompt)  # expect: CAN102
    except Exception:
        proc.kill()
        raise
    await errors
    return out


# Fine: the finally has killed and reaped the child before its wait; the
# reader of its stderr ends at the pipe's end.
async def run_tool(cmd: str) -> bytes:
    proc = await asyncio.create_subprocess_exec(cmd, stdout=-1, stderr=-1)
    errors = asyncio.create_task(proc.stderr.read())
    try:
        return await proc.stdout.read()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        errors.cancel()
