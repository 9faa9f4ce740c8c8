"""What a loop's `finally` settles on each pass, including passes that leave
by `continue` or `break`, and loops that settle every element of a
container.

A `continue` or `break` inside a `try` runs its `finally` before the loop
goes on, as a `return` does before the function ends: what the `finally`
releases is released on that path too. A loop that cancels or closes each
element of a container (`for t in tasks: if not t.done(): t.cancel()`)
settles the whole container once it has run to its end.
"""

import asyncio
from typing import Any


# Fine: a pass that skips ahead by `continue` still closes the connection
# in the finally, so the next pass's sleep holds nothing.
async def poll(host: str, ready: asyncio.Event) -> None:
    while True:
        await asyncio.sleep(1)
        reader, writer = await asyncio.open_connection(host, 80)
        try:
            if not ready.is_set():
                continue
            await writer.drain()
        finally:
            writer.close()


# Buggy: the `continue` leaves before the close, which is no finally.
async def poll_leaky(host: str, ready: asyncio.Event) -> None:
    while True:
        await asyncio.sleep(1)  # expect: CAN102
        reader, writer = await asyncio.open_connection(host, 80)
        if not ready.is_set():
            continue
        await writer.drain()
        writer.close()


# Fine: the finally cancels every task of the pair the client connects
# that is not finished and waits for it; by the next pass's back-off
# nothing of it runs.
async def keep_alive(client: Any, ready: asyncio.Event) -> None:
    pair = ()
    while True:
        await asyncio.sleep(1)
        try:
            pair = await client.connect_pair()
            await ready.wait()
        finally:
            for task in pair:
                if not task.done():
                    task.cancel()
                    try:
                        await task
                    except asyncio.CancelledError:
                        pass


# Buggy: the sweep stops at the first finished task and leaves the rest.
async def keep_alive_partly(client: Any, ready: asyncio.Event) -> Any:
    pair = ()
    while True:
        await asyncio.sleep(1)  # expect: CAN102
        try:
            pair = await client.connect_pair()
            await ready.wait()
        finally:
            for task in pair:
                if task.done():
                    break
                task.cancel()


async def supervised_step(work: Any, watch: Any) -> Any:
    # the sweep's `elif` runs only for a task already done: every element
    # is cancelled or finished once the loop has run
    step = asyncio.create_task(work())
    watcher = asyncio.create_task(watch())
    try:
        done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)
        if step in done:
            return step.result()
        step.cancel()
        await asyncio.wait({step})
        raise RuntimeError("watcher ended first")
    finally:
        for task in (step, watcher):
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()


async def half_swept_step(work: Any, watch: Any) -> Any:
    # Buggy: the sweep names the step only; the watcher is left running
    step = asyncio.create_task(work())
    watcher = asyncio.create_task(watch())
    try:
        done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        watcher.cancel()
        return step.result()
    finally:
        for task in (step,):
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()
