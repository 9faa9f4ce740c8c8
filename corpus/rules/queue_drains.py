"""`await q.get()` on an asyncio queue known not to be empty returns at once.

asyncio's `Queue.get()` waits only while the queue is empty; right under a
test that it is not (`while not q.empty():`, `if q.qsize():`), with no
other await in between, the get cannot suspend, so no cancellation lands
there. A get with no such test (or after another await that could let a
consumer drain the queue) waits, and is a checkpoint like any other.
"""

import asyncio
from typing import Any


# Fine: the backlog is flushed from a queue that is not empty; the writer
# is closed right after, with no suspension in between.
async def flush_backlog(opener: Any, backlog: list) -> None:
    q: asyncio.Queue = asyncio.Queue()
    for item in backlog:
        q.put_nowait(item)
    writer = await opener.open_writer()
    while not q.empty():
        item = await q.get()
        writer.write(item)
    await writer.aclose()


# Fine: the same under an `if` on the size.
async def flush_one(opener: Any, item: Any) -> None:
    q: asyncio.Queue = asyncio.Queue()
    q.put_nowait(item)
    writer = await opener.open_writer()
    if q.qsize() > 0:
        got = await q.get()
        writer.write(got)
    await writer.aclose()


# Buggy twin: this get waits for a producer; cancelled there, the writer
# is never closed.
async def forward_until_done(opener: Any, q: "asyncio.Queue[Any]") -> None:
    writer = await opener.open_writer()
    while True:
        item = await q.get()  # expect: CAN102
        if item is None:
            break
        writer.write(item)
    await writer.aclose()


# Buggy twin: another await comes between the test and the get; a consumer
# may empty the queue meanwhile, and then the get waits.
async def flush_after_ping(opener: Any, peer: Any) -> None:
    q: asyncio.Queue = asyncio.Queue()
    writer = await opener.open_writer()
    while not q.empty():
        await peer.ping()  # expect: CAN102
        item = await q.get()
        writer.write(item)
    await writer.aclose()
