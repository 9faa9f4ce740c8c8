"""A value the function drops on every path has no cancellation window.

The window rules report a checkpoint where a cancellation skips the code
that was going to release the value, store it or hand it over. When the
function does none of that on any path (the normal one included), a
cancellation leaves the value exactly as the function's own end does: what
leaks it is the missing release, a plain leak that linters of unclosed
files report. A release anywhere (even only in an error handler), a store,
a return, an await of a task, or a call that may keep the value keeps the
window; a call that only reads it (`isinstance(x, T)`, `len(x)`, a log
line) keeps nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx


# Fine: the remote files are never closed, on the normal path either; a
# cancellation at the copy changes nothing about them.
async def copy_remote(client: Any, src_name: str, dst_name: str) -> None:
    src = await client.open(src_name, "rb")
    dst = await client.open(dst_name, "wb")
    await client.copy_data(src.handle, dst.handle)


class Sandbox:
    def __init__(self, ws: Any) -> None:
        self._ws = ws

    @classmethod
    async def create_new_sandbox(cls, url: str) -> Sandbox:
        return cls(await connect(url))

    async def run(self, cmd: str) -> str:
        return await self._ws.send(cmd)

    async def close(self) -> None:
        await self._ws.close()


async def connect(url: str) -> Any: ...


# Fine: each sandbox made here is only used, never closed, stored or handed
# on: the leak is the missing close, whether or not a cancellation comes.
async def run_everywhere(urls: list, db: Any) -> None:
    sandbox = None
    for url in urls:
        async with db.writer():
            if sandbox is not None:
                await sandbox.run("make clean")
            sandbox = await Sandbox.create_new_sandbox(url)
            await sandbox.run("make")


# Buggy: the normal path closes the file, a cancellation at the copy skips it.
async def copy_and_close(client: Any, src_name: str) -> None:
    src = await client.open(src_name, "rb")
    await client.copy_data(src.handle)  # expect: CAN102
    await src.close()


# Buggy: released only on an error path; the window is the cancellation's.
async def copy_or_close(client: Any, src_name: str) -> None:
    src = await client.open(src_name, "rb")
    try:
        await client.copy_data(src.handle)  # expect: CAN101
    except Exception:
        await src.close()
        raise


# Buggy: the task is awaited at the end; cancelled at the sleep, it is orphaned.
async def start_then_join(work: Any) -> None:
    task = asyncio.create_task(work())
    await asyncio.sleep(1)  # expect: CAN102
    await task


# Buggy: the connection is returned to the caller, who owns it from then on.
async def connect_and_greet(host: str) -> Any:
    reader, writer = await asyncio.open_connection(host, 80)
    await writer.drain()  # expect: CAN102
    return reader, writer


def describe_fetch(url: str) -> str:
    return "fetch of " + url


# Fine: the default client is never closed, on the normal path either; the
# isinstance test reads it, it keeps nothing.
async def fetch_with(url: str, client: Any = None) -> Any:
    if client is None:
        client = httpx.AsyncClient()
    try:
        if isinstance(client, httpx.AsyncClient):
            resp = await client.get(url)
            return resp.status_code
        return 0
    except Exception:
        logging.warning(describe_fetch(url))


# Buggy twin: this one is closed on the normal path.
async def fetch_and_close(url: str, client: Any = None) -> Any:
    if client is None:
        client = httpx.AsyncClient()
    try:
        if isinstance(client, httpx.AsyncClient):
            resp = await client.get(url)  # expect: CAN102
            await client.aclose()
            return resp.status_code
        return 0
    except Exception:
        logging.warning(describe_fetch(url))
