"""Protobuf messages are plain data.

A helper of the tree annotated to return a message of a protobuf-generated
module (`-> api_pb2.Item`) makes plain data, whatever its name says
(`_create_item`): awaiting something while holding it is no window. A
helper with the same name shape that returns a session is a resource
maker.
"""

import dataclasses
from typing import Any

import aiohttp

from proto import api_pb2  # type: ignore[import-not-found]


async def _create_item(payload: bytes) -> api_pb2.Item:
    return api_pb2.Item(payload=payload)


async def _create_session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession()


@dataclasses.dataclass
class RetryContext:
    item: Any
    attempt: int = 0


# Fine: the item is a message, kept in the retry context returned.
async def submit(stub: Any, payload: bytes) -> RetryContext:
    item = await _create_item(payload)
    await stub.Map(api_pb2.Request(items=[item]))
    return RetryContext(item=item)


# Buggy: a session made by a helper of the tree, closed after the wait.
async def submit_over(stub: Any) -> None:
    session = await _create_session()
    await stub.Ping()  # expect: CAN102
    await session.close()
