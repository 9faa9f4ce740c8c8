"""Two backends of one abstract client, each with a listener that ends quietly.

`Backend.events` is abstract; `HttpBackend` and `SocketBackend` implement
it, and `Relay._pump` (relay.py) iterates it on an object whose class it
does not know, as its task's last step: each implementation then runs as
that task's last frames. `feed` of `Recorder` and `Player`, which share no
abstract method, stay judged alone: the one a task iterates is not known.
"""
import abc
import asyncio


class Backend(abc.ABC):
    @abc.abstractmethod
    def events(self):
        ...


class HttpBackend(Backend):
    def __init__(self, poller):
        self._poller = poller

    async def events(self):
        while True:
            try:
                item = await self._poller.next()
            except asyncio.CancelledError:
                return
            yield item


class SocketBackend(Backend):
    def __init__(self, sock):
        self._sock = sock

    async def events(self):
        while True:
            try:
                item = await self._sock.recv()
            except asyncio.CancelledError:
                return
            yield item


class Recorder:
    def __init__(self, source):
        self._source = source

    async def feed(self):
        while True:
            try:
                item = await self._source.read()
            except asyncio.CancelledError:  # expect: CAN401
                return
            yield item


class Player:
    def __init__(self, source):
        self._source = source

    async def feed(self):
        while True:
            try:
                item = await self._source.read()
            except asyncio.CancelledError:  # expect: CAN401
                return
            yield item
