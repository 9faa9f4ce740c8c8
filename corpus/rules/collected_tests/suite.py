"""Tests a test runner collects and runs to their end.

pytest runs `async def test_*()` at a module's top level, and the `test_*`
methods of a class named `Test*`, each to its end in a loop of its own, and
unittest runs the test methods (and `asyncSetUp`) of an
`IsolatedAsyncioTestCase` the same way: nothing cancels them, so a child
left across their awaits is not orphaned by a cancellation, and neither is
one in a helper of the module only they await. A method named `test_*` of
another class, or a local function so named, is judged as any coroutine, and
so is a function of another module the tests call (client.py).
"""

import asyncio
import unittest

from .client import connect_probe


async def start_server(port):
    proc = await asyncio.create_subprocess_exec("server", str(port))
    await asyncio.sleep(0.5)
    return proc


async def test_server_answers():
    proc = await start_server(8080)
    reader, writer = await asyncio.open_connection("127.0.0.1", 8080)
    await writer.drain()
    writer.close()
    proc.kill()


class TestClient:
    async def test_probe(self):
        await connect_probe("127.0.0.1")

    async def test_reconnects(self):
        proc = await asyncio.create_subprocess_exec("server", "8081")
        await asyncio.sleep(0.5)
        proc.kill()


class ClientCases(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.proc = await asyncio.create_subprocess_exec("server", "8082")

    async def test_status(self):
        proc = await asyncio.create_subprocess_exec("probe")
        await asyncio.sleep(0.1)
        proc.kill()


class Prober:
    async def test_endpoint(self, url):
        proc = await asyncio.create_subprocess_exec("curl", url)
        await asyncio.sleep(0.1)  # expect: CAN102
        proc.kill()

    async def run(self, url):
        async def test_once():
            proc = await asyncio.create_subprocess_exec("curl", url)
            await asyncio.sleep(0.1)  # expect: CAN102
            proc.kill()

        await asyncio.wait_for(test_once(), 5)
