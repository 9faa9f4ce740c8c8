"""Module-level test cases of a test module: the runner's main tasks."""

import asyncio


async def produce(queue: asyncio.Queue, n: int) -> None:
    for i in range(n):
        await queue.put(i)


# Fine: the producer is left to the runner if the test stops at the get.
async def test_consumes_in_order() -> None:
    queue: asyncio.Queue = asyncio.Queue(maxsize=1)
    producer = asyncio.create_task(produce(queue, 2))
    assert await queue.get() == 0
    assert await queue.get() == 1
    await producer


# Buggy twin: a helper of the test module, not collected: its caller may be
# cancelled at the get, and the producer runs on.
async def consume_two(queue: asyncio.Queue) -> list:
    producer = asyncio.create_task(produce(queue, 2))
    got = [await queue.get()]  # expect: CAN102
    got.append(await queue.get())
    await producer
    return got
