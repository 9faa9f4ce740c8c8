"""A filter of containers holds what it keeps.

`left = [t for t in tasks | {out} if not t.done()]` keeps (some of) the
elements of `tasks` and `out`: cancelling every element of `left` in a
finally releases them all. A comprehension that makes something else of
each element (`[t.get_name() for t in tasks]`) holds none of them.
"""

import asyncio
from typing import Any


# Fine: the finally cancels the producers and the reader that are left.
async def merge(gens: list, queue: asyncio.Queue) -> None:
    tasks = {asyncio.create_task(g) for g in gens}
    reader = asyncio.create_task(queue.get())
    try:
        await asyncio.wait([*tasks, reader])
    finally:
        left = [t for t in tasks | {reader} if not t.done()]
        for t in left:
            t.cancel()


# Buggy: the reader is left out of what the finally cancels.
async def merge_forgetting_reader(gens: list, queue: asyncio.Queue) -> Any:
    tasks = {asyncio.create_task(g) for g in gens}
    reader = asyncio.create_task(queue.get())
    try:
        await asyncio.wait([*tasks, reader])  # expect: CAN102
    finally:
        left = [t for t in tasks if not t.done()]
        for t in left:
            t.cancel()
    return reader.result()
