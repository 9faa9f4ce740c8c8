"""A helper that only assembles a record of in-memory parts makes nothing.

`track = await self._create_audio_track(...)` sounds like a maker, but the
helper never suspends, makes nothing that is (or is named like) a
resource, stores nothing, and returns a data record of the tree built
from what it made: in-memory parts, no handle to anything that needs
releasing. A helper that awaits a remote create and wraps its answer in a
record hands back the handle of what it created.
"""

from dataclasses import dataclass
from typing import Any


class AudioSource:
    def __init__(self, rate: int) -> None:
        self.rate = rate


class AudioTrackImpl:
    def __init__(self, source: AudioSource) -> None:
        self.source = source


@dataclass
class AudioTrack:
    source: AudioSource
    track: AudioTrackImpl


@dataclass
class SandboxRecord:
    sandbox_id: str


class Transport:
    def __init__(self, client: Any, api: Any) -> None:
        self._client = client
        self._api = api
        self._records: list = []

    async def _create_audio_track(self, rate: int) -> AudioTrack:
        source = AudioSource(rate)
        return AudioTrack(source=source, track=AudioTrackImpl(source))

    async def _create_sandbox_record(self) -> SandboxRecord:
        sandbox_id = await self._api.create_sandbox()
        return SandboxRecord(sandbox_id=sandbox_id)

    # Fine: the track is a record of in-memory parts; the client keeps the
    # part it publishes.
    async def add_track(self, name: str, ready: Any) -> AudioTrack:
        track = await self._create_audio_track(16000)
        self._client.publish(name, track.track)
        await ready.wait()
        return track

    # Buggy twin: the record names a sandbox the helper created remotely;
    # cancelled at the wait, nothing will delete it.
    async def add_sandbox(self, ready: Any) -> SandboxRecord:
        record = await self._create_sandbox_record()
        await ready.wait()  # expect: CAN102
        self._records.append(record)
        return record
