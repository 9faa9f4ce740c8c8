"""Regional work on clients and buckets made in worker threads."""

import asyncio
from typing import Any

from .clients import create_bucket, create_storage_client


# Fine: the client is a local handle, handed to the lister.
async def list_region(region: str, lister: Any) -> list:
    client = await asyncio.to_thread(create_storage_client, region)
    return await lister(client)


# Buggy twin: the bucket made in the thread is dropped when cancelled.
async def provision_bucket(client: Any, name: str) -> str:
    bucket = await asyncio.to_thread(create_bucket, client, name)  # expect: CAN203
    return bucket["Location"]
