"""The connection's own sessions, and sessions on pipes nobody keeps."""

from typing import Any

from .channel import Channel, Pipe, Probe, Tap


class Connection:
    def __init__(self) -> None:
        self._channels: dict = {}

    def add_channel(self, chan: Any) -> int:
        self._channels[len(self._channels)] = chan
        return len(self._channels)

    def remove_channel(self, key: int) -> None:
        self._channels.pop(key, None)

    async def create_session(self, factory: Any) -> Any:
        chan = Channel(self, "session")
        session = await chan.create(factory)
        return chan, session

    async def create_pipe_session(self, factory: Any) -> Any:
        pipe = Pipe(self, "pipe")
        session = await pipe.create(factory)
        return pipe, session

    # Fine: the channel and its session are the connection's (registered
    # in its constructor); a cancellation at the redirect leaves them to it.
    async def create_process(self, factory: Any, stdin: Any) -> Any:
        chan, process = await self.create_session(factory)
        await process.redirect(stdin)
        return process

    # Buggy: a pipe is kept by nobody but this function, which only hands it
    # back after the redirect.
    async def create_pipe_process(self, factory: Any, stdin: Any) -> Any:
        pipe, process = await self.create_pipe_session(factory)
        await process.redirect(stdin)  # expect: CAN102
        return pipe, process

    async def create_tap_session(self, factory: Any) -> Any:
        tap = Tap(self, "tap")
        session = await tap.create(factory)
        return tap, session

    async def create_probe_session(self, factory: Any) -> Any:
        probe = Probe(self, "probe")
        session = await probe.create(factory)
        return probe, session

    # Fine: the tap registered with this connection, which it keeps on
    # itself, in its constructor.
    async def create_tap_process(self, factory: Any, stdin: Any) -> Any:
        tap, process = await self.create_tap_session(factory)
        await process.redirect(stdin)
        return process

    # Buggy: the probe registered only with a fork of its own.
    async def create_probe_process(self, factory: Any, stdin: Any) -> Any:
        probe, process = await self.create_probe_session(factory)
        await process.redirect(stdin)  # expect: CAN102
        return probe, process
