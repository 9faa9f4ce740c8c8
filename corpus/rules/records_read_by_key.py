"""A value read as a record of fields is data, whatever made it.

`info = await asyncio.to_thread(gateway.open_session)` reads like a maker
of a session, but when the caller then reads `info["url"]` and
`info["token"]`, what the thread returned is a mapping of fields (a JSON
reply), not an open object: nothing to release if the await is
cancelled, nor across a later await. A value kept as an object (a method
called on it, closed in cleanup) is still a resource, and so is a remote
create's reply, whose fields name the object made (`reply["id"]`).
"""

import asyncio
from typing import Any

from gatewaylib import Gateway


async def dial(url: str, token: str) -> None:
    await asyncio.sleep(0)


# Fine: the reply is read by key; the connection is made later, by
# dial, and a retry goes round for a new reply.
async def connect_via_gateway(gateway: Gateway, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            info = await asyncio.to_thread(gateway.open_session)
            if not info:
                await asyncio.sleep(10)
                continue
            await dial(info["url"], info["token"])
        except asyncio.CancelledError:
            raise
        except Exception:
            await asyncio.sleep(3)


# Buggy: the same maker, but the value is an object whose close the
# cleanup calls; a cancel at the thread's await drops it.
async def open_and_use(gateway: Gateway) -> None:
    session = await asyncio.to_thread(gateway.open_session)  # expect: CAN203
    try:
        await asyncio.sleep(1)
        session.send(b"ping")
    finally:
        session.close()


# Buggy: a remote create's reply names the bucket made; read by key, it
# is still that bucket, and the delete only runs on an error.
async def make_bucket(gateway: Gateway, name: str) -> str:
    reply = await asyncio.to_thread(gateway.create_bucket, name)  # expect: CAN203
    try:
        await asyncio.sleep(1)  # expect: CAN101
    except Exception:
        await asyncio.to_thread(gateway.delete_bucket, reply["id"])
        raise
    return reply["id"]


# Buggy: rebound by a loop before any read by key, the first value is
# still the session made.
async def rebound_name(gateway: Gateway, replies: list) -> None:
    session = await asyncio.to_thread(gateway.open_session)  # expect: CAN203
    try:
        await asyncio.sleep(1)
    finally:
        session.close()
    for session in replies:
        print(session["url"])
