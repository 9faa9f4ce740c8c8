"""Handlers at the program's edge: the user's interrupt named with cancellation.

`asyncio.run` delivers ^C to the main task as a cancellation. A handler that
names `KeyboardInterrupt` beside `CancelledError` is written for that: the
command ends its work quietly when the user stops it, and nothing waits to
learn of the cancellation. The same handler without the interrupt, or one
that goes round its loop and keeps working, is a swallow.
"""

import asyncio


async def follow_logs(client, app_id):
    # Fine: ^C (or the runner's cancel) ends the streaming; nothing goes on.
    try:
        async for line in client.logs(app_id):
            print(line)
    except (asyncio.CancelledError, KeyboardInterrupt):
        pass


async def follow_logs_quietly(client, app_id):
    try:
        async for line in client.logs(app_id):
            print(line)
    except asyncio.CancelledError:  # expect: CAN401
        pass
    await client.mark_read(app_id)


async def watch_forever(client):
    # Swallowed and round again: the loop cannot be stopped by a cancel.
    while True:
        try:
            await client.poll()
        except (asyncio.CancelledError, KeyboardInterrupt):  # expect: CAN401
            print("interrupted, polling again")
