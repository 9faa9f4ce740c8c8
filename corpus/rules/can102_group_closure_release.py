"""A value a local function releases, run as a task of a group.

`async with asyncio.TaskGroup() as tg: tg.create_task(pump())`, where the
local `pump` closes a value of the enclosing function: the task owns that
value only if it releases it however it ends (in a `finally` or an
`except`), or before it first suspends. A task of a group is cancelled
with the code that started it; one that closes the value only after its
`async for` has read a line never gets there, and the value stays open. A
task nothing cancels along with its starter (a plain `create_task`) runs
on to its release, so it owns the value either way.
"""

import asyncio
from typing import Any


# Buggy: the group cancels `pump` when a cancellation (or the timeout) ends
# the block before it has read a line, and the writer is never closed (the
# window is reported at the group, whose exit is the checkpoint).
async def relay_until_ready(host: str, port: int, ready: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection(host, port)

    async def pump() -> None:
        async for line in reader:
            if line == b"ready\n":
                writer.close()
                ready.set()
                return

    async with asyncio.TaskGroup() as tg:  # expect: CAN102
        tg.create_task(pump())
        await asyncio.wait_for(ready.wait(), 5)


# Fine: the task closes the writer in its finally, cancelled or not.
async def relay_with_finally(host: str, port: int, ready: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection(host, port)

    async def pump() -> None:
        try:
            async for line in reader:
                if line == b"ready\n":
                    ready.set()
                    return
        finally:
            writer.close()

    async with asyncio.TaskGroup() as tg:
        tg.create_task(pump())
        await asyncio.wait_for(ready.wait(), 5)


# Fine: the release is the task's first step (whichever branch runs), so
# no cancellation can come before it.
async def close_in_group(conn: Any, session: Any, done: asyncio.Event) -> None:
    async def close_all() -> None:
        if session is not None:
            await session.close()
        elif conn is not None:
            await conn.close()
        done.set()

    async with asyncio.TaskGroup() as tg:
        tg.create_task(close_all())
        await done.wait()


class Spinner:
    def __init__(self, text: str) -> None:
        self.text = text

    def start(self) -> None:
        print(self.text)

    def stop(self) -> None:
        print("done")


class Context:
    """A home-made task context: it cancels its tasks at exit."""

    def __init__(self) -> None:
        self._tasks: list = []

    async def __aenter__(self) -> "Context":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def create_task(self, coro: Any) -> asyncio.Task:
        t = asyncio.create_task(coro)
        self._tasks.append(t)
        return t


# Buggy: the same through a context entered with `async with`: its tasks are
# cancelled with the function, and the process read by `watch` is killed
# only once a line has come.
async def attach(argv: list, connected: asyncio.Event) -> None:
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)

    async def watch() -> None:
        async for _line in proc.stdout:
            if not connected.is_set():
                connected.set()
        proc.kill()

    async with Context() as tc:  # expect: CAN102
        tc.create_task(watch())
        await asyncio.wait_for(connected.wait(), 60)


# Fine: a plain task is not cancelled with its starter; it runs on to the
# kill.
async def attach_detached(argv: list, connected: asyncio.Event) -> asyncio.Task:
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE)

    async def follow() -> None:
        while await proc.stdout.readline():
            connected.set()
        proc.kill()

    return asyncio.create_task(follow())
