"""Two families in one tree (corpus/families/README.md): the queues here
and the caches in caches.py. Each draws its own grid, the larger first;
a cache is compared with caches only.
"""

from __future__ import annotations

import asyncio
from typing import Any


class BaseQueue:
    async def publish(self, topic: str, body: bytes) -> None:
        raise NotImplementedError

    async def consume(self, topic: str) -> Any:
        raise NotImplementedError


class AmberQueue(BaseQueue):
    def __init__(self, broker: Any) -> None:
        self._broker = broker
        self._consumers: dict[str, Any] = {}

    async def publish(self, topic: str, body: bytes) -> None:
        await self._broker.send(topic, body)

    async def consume(self, topic: str) -> Any:
        channel = await self._broker.open_channel(topic)
        await channel.subscribe(topic)  # expect: CAN102
        self._consumers[topic] = channel
        return channel


class BasilQueue(BaseQueue):
    def __init__(self, broker: Any) -> None:
        self._broker = broker
        self._consumers: dict[str, Any] = {}

    async def publish(self, topic: str, body: bytes) -> None:
        await self._broker.send(topic, body)

    async def consume(self, topic: str) -> Any:
        channel = await self._broker.open_channel(topic)
        try:
            await channel.subscribe(topic)
        except BaseException:
            await asyncio.shield(channel.close())
            raise
        self._consumers[topic] = channel
        return channel


class CoralQueue(BaseQueue):
    def __init__(self, broker: Any) -> None:
        self._broker = broker

    async def publish(self, topic: str, body: bytes) -> None:
        await self._broker.send(topic, body)
