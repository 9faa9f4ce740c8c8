"""CAN203 and CAN201 with a create whose noun is plural: thread work that
runs `admin.create_topics(new_topics)` or `splitter.create_documents(texts)`
makes a batch (topics the broker keeps, in-memory documents), which the
name does not make one remote object that a dropped result orphans. A
singular create (`admin.create_topic(name)`) in the same place is one.
"""

import asyncio
from typing import Any, List


class TopicAdmin:
    def __init__(self, admin: Any, splitter: Any) -> None:
        self.admin = admin
        self.splitter = splitter

    async def provision_topics(self, names: List[str]) -> Any:
        loop = asyncio.get_running_loop()
        results = await loop.run_in_executor(None, lambda: self.admin.create_topics(names))
        await asyncio.sleep(0)
        return results

    async def split_batch(self, texts: List[str]) -> Any:
        loop = asyncio.get_running_loop()
        chunks = await loop.run_in_executor(None, lambda: self.splitter.create_documents(texts))
        return chunks

    async def provision_topic(self, name: str) -> Any:
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, lambda: self.admin.create_topic(name))  # expect: CAN203
        await asyncio.sleep(0)
        return result

    async def add_partitions(self, topic: str) -> Any:
        return await asyncio.wait_for(self.admin.create_partitions(topic, 4), timeout=5)

    async def add_topic(self, topic: str) -> Any:
        return await asyncio.wait_for(self.admin.create_topic(topic), timeout=5)  # expect: CAN201

    async def provision_topics_by_ref(self, names: List[str]) -> Any:
        loop = asyncio.get_running_loop()
        results = await loop.run_in_executor(None, self.admin.create_topics, names)
        await asyncio.sleep(0)
        return results

    async def provision_topic_by_ref(self, name: str) -> Any:
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, self.admin.create_topic, name)  # expect: CAN203
        await asyncio.sleep(0)  # expect: CAN102
        return result
