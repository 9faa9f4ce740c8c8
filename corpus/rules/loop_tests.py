"""A `while` test that a pass clears on success ends the loop there.

`while need_retry and retry <= 5:` ... `need_retry = False` before the
connect, `need_retry = True` only in the handler of a failed one: a pass
that connected ends the loop, so no later pass holds its connection across
the next connect. The test is read at the head of each pass, as `if not
need_retry: break` would be; a flag set in a handler and tested later is
tied to the values that path made, not to those another path made. The
twin sets the flag again after a success, so the next pass starts holding
the connection it made.
"""

import asyncio
from typing import Any


async def reconnect(session: Any, url: str, delays: list) -> Any:
    conn = None
    retry = 0
    need_retry = True
    while need_retry and retry <= 5:
        need_retry = False
        try:
            conn = await session.ws_connect(url)
        except Exception:
            await asyncio.sleep(delays[retry])
            retry += 1
            need_retry = True
    return conn


async def reconnect_explicit(session: Any, url: str, delay: float) -> Any:
    conn = None
    again = True
    while True:
        if not again:
            break
        again = False
        try:
            conn = await session.ws_connect(url)
        except Exception:
            await asyncio.sleep(delay)
            again = True
    return conn


async def reconnect_always(session: Any, url: str, delays: list) -> Any:
    conn = None
    retry = 0
    need_retry = True
    while need_retry and retry <= 5:
        need_retry = False
        try:
            conn = await session.ws_connect(url)  # expect: CAN102
            need_retry = not await conn.ping()
        except Exception:
            await asyncio.sleep(delays[retry])
            retry += 1
            need_retry = True
    return conn
