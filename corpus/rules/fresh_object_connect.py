"""A fresh object of the tree, cancelled in the first method called on it.

`radio = Radio(cfg); await radio.connect()`: a Radio whose constructor
stores nothing that must be released holds nothing until connect runs.
When connect stores what it opened only after its last suspension
(`self._port = await open_port(...)`, no await after), a cancellation
inside connect leaves the object still empty: nothing of this function's
leaks there (what leaks inside open_port is open_port's). A connect that
stores its port and then suspends again (a handshake) leaves the object
holding an open port, as does a second call, a loop around the call, or a
constructor that already starts something. A call on self's attributes
that is only tested before the last suspension (`while not
self.source.path.exists(): await sleep(1)`) asks, and stores nothing;
one made as a statement (`self.source.start_writer()`) may.
"""

import asyncio
from typing import Any


async def _heartbeat() -> None:
    """A task's work: it runs until cancelled."""
    while True:
        await asyncio.sleep(1)


async def open_port(path: str) -> Any:
    _, writer = await asyncio.open_unix_connection(path)
    return writer


class Radio:
    def __init__(self, path: str) -> None:
        self._path = path
        self._port: Any = None
        self._listeners: list = []
        self.add_listener(print)

    def add_listener(self, cb: Any) -> None:
        self._listeners.append(cb)

    async def connect(self) -> None:
        self._port = await open_port(self._path)
        self._listeners.append(self._port)

    async def reset(self) -> None:
        await self._port.write(b"reset")

    def close(self) -> None:
        if self._port is not None:
            self._port.close()

    # Fine: `cls(...)` in a class method is a Radio, whose connect is quiet.
    @classmethod
    async def open(cls, path: str) -> "Radio":
        radio = cls(path)
        await radio.connect()
        try:
            await radio.reset()
        except BaseException:
            radio.close()
            raise
        return radio


# Fine: connect stores the port after its only suspension.
async def start_radio(path: str) -> Radio:
    radio = Radio(path)
    await radio.connect()
    try:
        await radio.reset()
    except BaseException:
        radio.close()
        raise
    return radio


# Buggy: the window after connect is real.
async def start_radio_leaky(path: str) -> Radio:
    radio = Radio(path)
    await radio.connect()
    try:
        await radio.reset()  # expect: CAN101
    except Exception:
        radio.close()
        raise
    return radio


class Modem:
    def __init__(self, path: str) -> None:
        self._path = path
        self._port: Any = None

    async def connect(self) -> None:
        self._port = await open_port(self._path)
        await self._port.write(b"ATZ")  # a handshake with the port held

    def close(self) -> None:
        if self._port is not None:
            self._port.close()


# Buggy: cancelled in the handshake, the modem holds an open port.
async def start_modem(path: str) -> Modem:
    modem = Modem(path)
    await modem.connect()  # expect: CAN102
    try:
        await modem.connect()
    except BaseException:
        modem.close()
        raise
    return modem


class Pager:
    def __init__(self, path: str) -> None:
        self._path = path
        self._task: Any = asyncio.create_task(_heartbeat())
        self._port: Any = None

    async def connect(self) -> None:
        self._port = await open_port(self._path)

    def close(self) -> None:
        self._task.cancel()
        if self._port is not None:
            self._port.close()


# Buggy: the constructor already started a task the pager holds.
async def start_pager(path: str) -> Pager:
    pager = Pager(path)
    await pager.connect()  # expect: CAN102
    try:
        await asyncio.sleep(0)
    except BaseException:
        pager.close()
        raise
    return pager


# Buggy: the second connect runs on an object that holds a port already.
async def reconnect_radio(path: str) -> Radio:
    radio = Radio(path)
    for _ in range(3):
        await radio.connect()  # expect: CAN102
    try:
        await radio.reset()
    except BaseException:
        radio.close()
        raise
    return radio


class ProcHolder:
    proc: Any

    def kill(self) -> None:
        self.proc.kill()

    # Fine: the new runner holds nothing until the process it is given
    # exists; a cancellation inside the spawn leaves an empty runner.
    @classmethod
    async def spawn(cls, *cmd: str) -> "ProcHolder":
        runner = cls()
        runner.proc = await asyncio.create_subprocess_exec(*cmd)
        try:
            await runner.proc.wait()  # expect: CAN101
        except Exception:
            runner.kill()
            raise
        return runner


class Framer:
    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._ready = False

    async def greet(self) -> None:
        await self._stream.send(b"hello")
        self._ready = True

    def close(self) -> None:
        self._stream.close()


# Buggy: the channel wraps a stream this function opened.
async def open_channel(path: str) -> Framer:
    _, writer = await asyncio.open_unix_connection(path)
    chan = Framer(writer)
    try:
        await chan.greet()  # expect: CAN101
    except Exception:
        chan.close()
        raise
    return chan


# Fine: an untouched radio holds nothing across an unrelated await.
async def radio_later(path: str) -> Radio:
    radio = Radio(path)
    await asyncio.sleep(1)
    try:
        await radio.connect()
        await radio.reset()
    except BaseException:
        radio.close()
        raise
    return radio


# Buggy: the radio was connected before the await.
async def radio_touched(path: str) -> Radio:
    radio = Radio(path)
    await radio.connect()
    radio.add_listener(print)
    await asyncio.sleep(1)  # expect: CAN102
    try:
        await radio.reset()
    except BaseException:
        radio.close()
        raise
    return radio


class Acceptor:
    def __init__(self, path: str, unix: bool) -> None:
        self._path = path
        self._unix = unix
        self._server: Any = None
        self._started = False

    async def _bind_unix(self) -> None:
        self._server = await asyncio.start_unix_server(print, path=self._path)

    async def _bind_tcp(self) -> None:
        self._server = await asyncio.start_server(print, port=0)

    async def start(self) -> None:
        if self._unix:
            await self._bind_unix()
        else:
            await self._bind_tcp()
        self._started = True

    async def start_and_wait(self) -> None:
        await self._bind_tcp()
        await self._server.start_serving()  # the server is held across this

    def close(self) -> None:
        if self._server is not None:
            self._server.close()


# Fine: start only awaits helpers of its own that store after their one
# suspension, each on its own branch, and nothing suspends after them.
async def serve(path: str) -> Acceptor:
    acceptor = Acceptor(path, True)
    await acceptor.start()
    try:
        await asyncio.sleep(1)
    except BaseException:
        acceptor.close()
        raise
    return acceptor


# Buggy: start_and_wait suspends with the server stored.
async def serve_and_wait(path: str) -> Acceptor:
    acceptor = Acceptor(path, False)
    await acceptor.start_and_wait()  # expect: CAN102
    try:
        await asyncio.sleep(1)
    except BaseException:
        acceptor.close()
        raise
    return acceptor


class Tail:
    """A reader that waits for its file to appear, then opens it."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.file: Any = None

    # Only asks the source (a test, not awaited) before its last sleep.
    async def open(self) -> None:
        while not self.source.path.exists():
            await asyncio.sleep(1)
        self.file = open(self.source.path, "rb")

    # Starts the source's writer before its sleep: that is no question.
    async def open_started(self) -> None:
        self.source.start_writer()
        while not self.source.path.exists():
            await asyncio.sleep(1)
        self.file = open(self.source.path, "rb")

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# Fine: a cancel inside open() leaves the reader without its file.
async def follow(source: Any, sink: Any) -> None:
    tail = Tail(source)
    await tail.open()
    try:
        await sink.drain(tail.file)
    finally:
        tail.close()


# Buggy: open_started has made the source start writing before it sleeps.
async def follow_started(source: Any, sink: Any) -> None:
    tail = Tail(source)
    await tail.open_started()  # expect: CAN102
    try:
        await sink.drain(tail.file)
    finally:
        tail.close()
