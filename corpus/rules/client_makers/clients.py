"""Makers run in worker threads by the package, beside a health check."""

import asyncio
from typing import Any, Optional

from .base import create_aws_client


async def ping(client: Any) -> None:
    await asyncio.sleep(0)
    client.list_buckets()


def create_storage_client(region: Optional[str] = None) -> Any:
    return create_aws_client("s3", region)


def create_bucket(client: Any, name: str) -> Any:
    return client.create_bucket(Bucket=name)
