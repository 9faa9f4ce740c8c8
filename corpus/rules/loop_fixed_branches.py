"""Branches of a loop that an identity test keeps apart.

`if watcher is None:` inside a loop that never binds `watcher` again takes
the same branch on every pass: a task made only in the other branch, on an
earlier pass, is not alive when this branch awaits. The twins rebind the
tested name in the loop (then a later pass may change branch), or await
while the task of this very pass is still unowned.
"""

import asyncio


async def follow(source, watch):
    watcher = None
    if watch:
        watcher = asyncio.create_task(source.wait_stop())
    try:
        while watcher is None or not watcher.done():
            if watcher is None:
                batch = await source.next_batch()
                source.show(batch)
            else:
                step = asyncio.create_task(source.next_batch())
                try:
                    done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)
                except BaseException:
                    step.cancel()
                    raise
                if step in done:
                    source.show(step.result())
                    continue
                step.cancel()
                return
    finally:
        if watcher is not None:
            watcher.cancel()


async def follow_unguarded_wait(source, watch):
    watcher = None
    if watch:
        watcher = asyncio.create_task(source.wait_stop())
    try:
        while watcher is None or not watcher.done():
            if watcher is None:
                batch = await source.next_batch()
                source.show(batch)
            else:
                step = asyncio.create_task(source.next_batch())
                done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
                if step in done:
                    source.show(step.result())
                    continue
                step.cancel()
                return
    finally:
        if watcher is not None:
            watcher.cancel()


async def follow_switching(source, watch):
    watcher = None
    while True:
        if watcher is None:
            batch = await source.next_batch()  # expect: CAN102
            source.show(batch)
            if watch:
                watcher = asyncio.create_task(source.wait_stop())
        else:
            step = asyncio.create_task(source.next_batch())
            try:
                done, _ = await asyncio.wait({step, watcher}, return_when=asyncio.FIRST_COMPLETED)
            except BaseException:
                step.cancel()
                raise
            if step in done:
                source.show(step.result())
                continue
            # the watcher fired: back to plain reads, with the step still running
            watcher = None
