# A task that runs a timed wait (`create_task(asyncio.wait_for(coro, t))`)
# ends by itself when its time is up, the wait cancelling its work: left to
# nobody by a cancellation, it holds nothing past that deadline.
import asyncio


async def watch_events(client, name):
    async for event in client.events(name):
        if event.kind == "terminated":
            return event


async def create_and_watch(client, name, timeout):
    watcher = asyncio.create_task(asyncio.wait_for(watch_events(client, name), timeout))
    session = await client.create(name)
    await watcher
    return session


async def create_and_watch_kw(client, name):
    watcher = asyncio.ensure_future(asyncio.wait_for(watch_events(client, name), timeout=30.0))
    session = await client.create(name)
    await watcher
    return session


# Near misses: no deadline (timeout=None), or no timed wait at all.

async def create_and_watch_forever(client, name):
    watcher = asyncio.create_task(asyncio.wait_for(watch_events(client, name), timeout=None))
    session = await client.create(name)  # expect: CAN102
    await watcher
    return session


async def create_and_watch_untimed(client, name):
    watcher = asyncio.create_task(watch_events(client, name))
    session = await client.create(name)  # expect: CAN102
    await watcher
    return session
