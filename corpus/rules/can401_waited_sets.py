"""Awaiting a task of an asyncio.wait whose pending set was cancelled.

`done, pending = await asyncio.wait([a, b], return_when=FIRST_COMPLETED)`
then `for t in pending: t.cancel()`: each of a and b is now either done or
cancelled, so `try: await b` / `except CancelledError: pass` catches only
what b ended with (its own cancellation), as after `b.cancel(); await b`.
The twins cancel a set that is not the wait's pending set, or await a task
the wait did not hold. (Each wait itself is a window of the tasks, left
running if the caller is cancelled there.)
"""

import asyncio


# Fine: b is done or was cancelled with the rest of pending.
async def first_of(events, fetch):
    changed = asyncio.create_task(events.wait())
    result = asyncio.create_task(fetch())
    done, pending = await asyncio.wait([changed, result], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    for t in pending:
        t.cancel()
    try:
        await result
    except asyncio.CancelledError:
        pass
    return result in done


# Swallow: the loop cancels another set, so result may still be running and
# the await can take the caller's cancellation.
async def first_of_other_set(events, fetch, others):
    changed = asyncio.create_task(events.wait())
    result = asyncio.create_task(fetch())
    done, pending = await asyncio.wait([changed, result], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    for t in others:
        t.cancel()
    try:
        await result
    except asyncio.CancelledError:  # expect: CAN401
        pass
    return result in done


# Swallow: the task awaited was not in the wait.
async def first_of_then_more(events, fetch, more):
    changed = asyncio.create_task(events.wait())
    result = asyncio.create_task(fetch())
    extra = asyncio.create_task(more())
    done, pending = await asyncio.wait({changed, result}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
    for t in pending:
        t.cancel()
    try:
        await extra
    except asyncio.CancelledError:  # expect: CAN401
        pass
    return result in done
