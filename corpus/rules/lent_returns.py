"""What a helper stores in self and then returns is lent to its caller.

``fut = Future(); self._waiters[name] = fut; return fut``: on every path that
returns it, the helper first put the value in a registry of self, so self
keeps it (the reply handler pops and resolves it), and the caller only
borrows it: a cancellation while it waits leaves it owned. A value parked on
a parameter's object (``ctx.span = span``) has no such owner: that object
may own nothing, and the caller's window stays.
"""

import asyncio
from typing import Any, Dict


class RpcChannel:
    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._waiters: Dict[str, "asyncio.Future[Any]"] = {}

    def _set_waiter(self, name: str) -> "asyncio.Future[Any]":
        if name in self._waiters:
            raise RuntimeError(f"waiter {name} already set")
        fut: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._waiters[name] = fut
        return fut

    def _pop_waiter(self, name: str) -> "asyncio.Future[Any]":
        return self._waiters.pop(name)

    async def call(self, name: str, frame: bytes) -> Any:
        f = self._set_waiter(name)
        try:
            await self._conn.write(frame)
        except Exception:
            self._pop_waiter(name)
            f.cancel()
            raise
        return await f


def start_span(ctx: Any, tracer: Any) -> Any:
    span = tracer.start_span("invoke")
    ctx.span = span
    return span


async def traced_invoke(ctx: Any, tracer: Any, work: Any) -> Any:
    span = start_span(ctx, tracer)
    try:
        result = await work()  # expect: CAN101
    except Exception:
        span.close()
        raise
    return result


def park_handle(holder: Any, pool: Any) -> Any:
    handle = pool.checkout_raw()
    holder.handle = handle
    return handle


async def traced_fetch(holder: Any, pool: Any, work: Any) -> Any:
    # Buggy: the holder is the caller's object, which may own nothing; the
    # handle is this function's to give back, on errors only here.
    handle = park_handle(holder, pool)
    try:
        result = await work(handle)  # expect: CAN101
    except Exception:
        handle.close()
        raise
    handle.close()
    return result
