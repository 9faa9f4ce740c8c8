"""Values handed to a task the function spawns.

`nursery.start_soon(fn, conn)` and `create_task(fn(conn))` hand conn to the
new task. When the function names conn there for the last time, the task
owns it, whatever fn is (a server's handler owns the connection it is
given); when fn is defined in the tree and releases or keeps conn, the task
owns it as well. When fn only uses conn and the function still releases it
later, the function keeps it, and its windows stay.
"""

import asyncio
from typing import Any

import trio


async def _serve_conn(conn: Any, handler: Any) -> None:
    try:
        await handler(conn)
    finally:
        await conn.aclose()


# Fine: each connection goes to a task of the nursery; the next accept
# finds no connection of this function's live.
async def accept_loop(listener: Any, nursery: trio.Nursery, handler: Any) -> None:
    while True:
        conn = await listener.accept()
        nursery.start_soon(_serve_conn, conn, handler)


# Fine: a handler the tree does not define gets the connection for good.
async def accept_loop_external(listener: Any, tg: Any, handler: Any) -> None:
    while True:
        conn = await listener.accept()
        tg.start_soon(handler, conn)


# Fine: the same with asyncio, the task kept in a set.
async def accept_asyncio(listener: Any, handler: Any, tasks: set) -> None:
    while True:
        conn = await listener.accept()
        task = asyncio.create_task(handler(conn))
        tasks.add(task)


async def _read_all(conn: Any) -> None:
    async for _ in conn:
        pass


# Buggy: the reader task only reads; the function still closes the
# connection itself, after a wait that nothing covers.
async def read_then_close(listener: Any, nursery: trio.Nursery, done: trio.Event) -> None:
    conn = await listener.accept()
    nursery.start_soon(_read_all, conn)
    await done.wait()  # expect: CAN102
    await conn.aclose()
