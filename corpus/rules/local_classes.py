"""Methods of a local made from a class of the tree resolve to that class
(`server = Server(...)`, then `await server.start()`), through its bases
too: an `async def` that never suspends is no checkpoint; one that does
is. An abstract method stands for its overrides, which may suspend.
"""

import abc
import asyncio
import socket
from typing import Any


class Listener:
    def __init__(self, port: int) -> None:
        self.port = port
        self._sock: Any = None

    async def start(self) -> None:
        # no await: binding is synchronous
        self._sock = socket.create_server(("", self.port))

    async def announce(self) -> None:
        await asyncio.sleep(0.1)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()


class TlsListener(Listener):
    pass


class Runner(abc.ABC):
    async def setup(self) -> None:
        self.server = await self._make()

    @abc.abstractmethod
    async def _make(self) -> Any:
        """Made by the subclass."""


class AppRunner(Runner):
    async def _make(self) -> Any:
        await asyncio.sleep(0)
        return object()

    async def cleanup(self) -> None:
        await asyncio.sleep(0)


# Correct: start() never suspends, so nothing can cancel the task between
# making the socket and handing the listener over.
async def serve_start(port: int, registry: list) -> None:
    conn = socket.create_connection(("localhost", port))
    listener = Listener(port)
    await listener.start()
    registry.append((listener, conn))


# Correct: the same through a subclass that inherits start().
async def serve_tls(port: int, registry: list) -> None:
    conn = socket.create_connection(("localhost", port))
    listener = TlsListener(port)
    await listener.start()
    registry.append((listener, conn))


# Buggy: announce() suspends, and the connection has no owner there.
async def serve_announce(port: int, registry: list) -> None:
    conn = socket.create_connection(("localhost", port))
    listener = Listener(port)
    await listener.announce()  # expect: CAN102
    registry.append((listener, conn))


# Buggy: setup() awaits an abstract method, which an override makes
# suspend; the connection is unowned across it.
async def run_app(port: int, registry: list) -> None:
    conn = socket.create_connection(("localhost", port))
    runner = AppRunner()
    await runner.setup()  # expect: CAN102
    registry.append((runner, conn))
