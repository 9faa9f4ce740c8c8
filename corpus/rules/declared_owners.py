"""What a declaration says about a name: `global`/`nonlocal` hands the value
to the module (or the enclosing function), a plain-data annotation holds for
every later binding of the name, and a record of the tree built in a
`return` does not raise into the handler that retries.

Each correct shape has a near-miss twin that still leaks.
"""

import asyncio
from dataclasses import dataclass
from typing import Any, Optional

_poller: Optional[asyncio.Task] = None


async def _poll(client: Any) -> None:
    while True:
        await client.refresh()
        await asyncio.sleep(5)


# Fine: the module global holds the poller from the assignment on; it is
# meant to outlive this call.
async def start_polling(client: Any, ctx: Any) -> None:
    global _poller
    if _poller is None:
        _poller = asyncio.create_task(_poll(client))
    async with ctx.session() as s:
        await s.ping()


# Leaks: the same shape without the `global` declaration binds a local,
# which nothing holds when the ping is cancelled.
async def start_polling_local(client: Any, ctx: Any) -> None:
    poller = asyncio.create_task(_poll(client))
    async with ctx.session() as s:  # expect: CAN102
        await s.ping()
    ctx.keep(poller)


# Fine: a closure's own counter task kept by the enclosing function's name.
def make_counter(client: Any):
    task: Optional[asyncio.Task] = None

    async def bump() -> None:
        nonlocal task
        task = asyncio.create_task(_poll(client))
        await client.notify()

    return bump


# Fine: `name: str` says the name holds a string in the whole function, so
# what `start_task()` returns later is no resource.
async def run_with_manager(options: Any, log: Any) -> None:
    manager: str = ""
    if options.early_stop is not None:
        manager = await options.early_stop.start_task(log)
    await log.flush()
    log.manager = manager


# Leaks: without the annotation, a started task's handle is a resource.
async def run_with_handle(options: Any, log: Any) -> None:
    handle = asyncio.create_task(options.worker(log))
    await log.flush()  # expect: CAN102
    log.handle = handle


@dataclass
class Handle:
    ident: str
    raw: Any


class Wrapper:
    def __init__(self, ident: str, raw: Any) -> None:
        if not ident:
            raise ValueError("no id")
        self.ident = ident
        self.raw = raw


# Fine: a successful connect returns at once; building the record does
# not raise, so the retry sleep only follows a connect that failed.
async def connect_with_retry(session: Any, url: str) -> Handle:
    while True:
        try:
            ws = await asyncio.wait_for(session.ws_connect(url), timeout=5)
            return Handle(ident=str(id(ws)), raw=ws)
        except asyncio.CancelledError:
            raise
        except BaseException:
            await asyncio.sleep(1)


# Leaks: a class whose constructor can raise sends the live socket into the
# handler, whose sleep is cancellable (it catches and then awaits).
async def connect_with_retry_wrapped(session: Any, url: str) -> Wrapper:
    while True:
        try:
            ws = await asyncio.wait_for(session.ws_connect(url), timeout=5)  # expect: CAN102
            return Wrapper(ident=url, raw=ws)
        except asyncio.CancelledError:
            raise
        except BaseException:
            await asyncio.sleep(1)
