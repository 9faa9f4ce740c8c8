"""`async for ev in obj` runs obj.__anext__ at each step, so a cancellation
of the step is delivered inside it. When that method releases the object on
cancellation (kills the remote process, then re-raises), the loop does not
leave the object unowned.
"""

import asyncio
from typing import Any

from .remote import submit


class RemoteProc:
    def __init__(self, client: Any, pid: int) -> None:
        self._client = client
        self._pid = pid

    def __aiter__(self) -> "RemoteProc":
        return self

    async def __anext__(self) -> Any:
        try:
            while True:
                event = await self._client.poll(self._pid)
                if event is not None:
                    return event
                await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            await asyncio.shield(self.kill())
            raise

    async def kill(self) -> None:
        await self._client.kill(self._pid)


class PlainProc:
    def __init__(self, client: Any, pid: int) -> None:
        self._client = client
        self._pid = pid

    def __aiter__(self) -> "PlainProc":
        return self

    async def __anext__(self) -> Any:
        return await self._client.poll(self._pid)

    async def kill(self) -> None:
        await self._client.kill(self._pid)


async def start_remote(client: Any, cmd: str) -> RemoteProc:
    return RemoteProc(client, await submit(client, cmd))


async def start_plain(client: Any, cmd: str) -> PlainProc:
    return PlainProc(client, await submit(client, cmd))


# Fine: a cancelled step kills the process inside RemoteProc.__anext__.
async def collect(client: Any, cmd: str) -> list:
    proc = await start_remote(client, cmd)
    out = []
    try:
        async for ev in proc:
            out.append(ev)
    except TimeoutError:
        await proc.kill()
        raise
    return out


# Leaks: PlainProc's step does nothing on cancellation, and the kill runs
# only for a timeout.
async def collect_plain(client: Any, cmd: str) -> list:
    proc = await start_plain(client, cmd)
    out = []
    try:
        async for ev in proc:  # expect: CAN101
            out.append(ev)
    except TimeoutError:
        await proc.kill()
        raise
    return out
