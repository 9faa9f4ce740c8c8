"""Remote creates the caller does not write itself: inside a local
function, a lambda or a functools.partial awaited under a timeout
(CAN201), and resources made by thread work that runs a function of the
tree (CAN203). The summaries say what a function of the tree makes.
"""

import asyncio
import functools
import socket
from typing import Any

from modal import Sandbox


class Backend:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._boxes: list[Any] = []

    # Buggy: the local coroutine awaits the create; the timeout cancels it
    # there, and a box the server made is lost.
    async def start_local(self, timeout: float) -> Any:
        async def _run() -> Any:
            return await Sandbox.create(image="base")

        box = await asyncio.wait_for(_run(), timeout)  # expect: CAN201
        self._boxes.append(box)
        return box

    # Buggy: a method of the tree that creates, awaited under a timeout.
    async def _provision(self) -> Any:
        return await self._client.sandboxes.create(image="base")

    async def start_method(self, timeout: float) -> Any:
        box = await asyncio.wait_for(self._provision(), timeout)  # expect: CAN201
        self._boxes.append(box)
        return box

    # Buggy: the create runs in a thread; the timeout gives up on the
    # await, not on the thread.
    async def start_lambda(self, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        box = await asyncio.wait_for(  # expect: CAN201
            loop.run_in_executor(None, lambda: self._client.sandboxes.create(image="base")), timeout
        )
        self._boxes.append(box)
        return box

    async def start_partial_inline(self, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        box = await asyncio.wait_for(  # expect: CAN201
            loop.run_in_executor(None, functools.partial(self._client.sandboxes.create, image="base")), timeout
        )
        self._boxes.append(box)
        return box

    # Buggy: thread work by functions of the tree that make a resource.
    def _do_start(self) -> Any:
        return self._client.containers.create(image="base")

    def _dial(self, host: str) -> Any:
        s = socket.socket()
        s.connect((host, 22))
        return s

    async def start_thread(self) -> Any:
        box = await asyncio.to_thread(self._do_start)  # expect: CAN203
        self._boxes.append(box)
        return box

    async def dial(self, host: str) -> Any:
        s = await asyncio.to_thread(self._dial, host)  # expect: CAN203
        self._boxes.append(s)
        return s

    # Correct: the local coroutine's create is shielded, and the shielded
    # task is kept when the wait gives up.
    async def start_local_shielded(self, timeout: float) -> Any:
        async def _run() -> Any:
            return await asyncio.shield(Sandbox.create(image="base"))

        box = await asyncio.wait_for(_run(), timeout)
        self._boxes.append(box)
        return box

    # Correct: a local coroutine that makes nothing remote.
    async def ping_local(self, timeout: float) -> Any:
        async def _run() -> Any:
            return await self._client.health()

        return await asyncio.wait_for(_run(), timeout)

    # Correct: thread work whose function returns plain data.
    def _read_config(self) -> dict:
        return {"image": "base"}

    async def config(self) -> dict:
        cfg = await asyncio.to_thread(self._read_config)
        self._boxes.append(cfg)
        return cfg
