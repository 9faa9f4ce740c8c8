"""An iterator of a parameter is the parameter.

`aiter(stream)` of an async generator or iterator is the object itself:
closing the iterator closes the caller's stream, which the caller owns. An
iterator of a stream the function opens itself is the function's.
"""

import asyncio


async def forward(stream, send):
    # Fine: the caller's stream, seen through aiter().
    it = aiter(stream)
    await send("start")
    try:
        async for event in it:
            await send(event)
    except BaseException:
        await it.aclose()
        raise


async def forward_opened(client, send, done):
    # Buggy: the stream is made here, and its iterator waits for `done`
    # before anything closes it.
    stream = await client.open_stream()
    it = aiter(stream)
    await done.wait()  # expect: CAN102
    async for event in it:
        await send(event)
    await it.aclose()
