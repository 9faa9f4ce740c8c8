"""Test cases shipped in a package (a suite providers subclass).

A test runner (pytest-asyncio, IsolatedAsyncioTestCase) runs each test case
as the main task of the test's event loop and cancels what it leaves
running when it ends: a task the test starts is the runner's to stop, as a
task of `asyncio.run`'s main coroutine is. What is not a task (a session,
a connection) is still the test's to close.
"""

import asyncio

import aiohttp


async def seed(client, n: int) -> None:
    for i in range(n):
        await client.send(i)


class ProviderTestSuite:
    # Fine: the seeder is left to the runner if the test stops at the wait.
    async def test_receives_seeded(self, client) -> None:
        seeder = asyncio.create_task(seed(client, 3))
        got = await client.receive(3)
        assert len(got) == 3
        await seeder

    # Buggy: the session is no task; a cancellation at the first request
    # (the runner's timeout) leaves it open.
    async def test_fetches(self, url: str) -> None:
        session = aiohttp.ClientSession()
        resp = await session.get(url)  # expect: CAN102
        assert resp.status == 200
        await session.close()


class Seeder:
    # Buggy twin: not a test case (a helper the suite calls): its caller
    # may be cancelled at the wait, and the seeder runs on.
    async def seed_and_receive(self, client) -> list:
        seeder = asyncio.create_task(seed(client, 3))
        got = await client.receive(3)  # expect: CAN102
        await seeder
        return got
