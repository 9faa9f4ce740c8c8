"""Local files: a direct subclass of BlobStore with its own get and put."""

from __future__ import annotations

import asyncio

from ..base import BlobStore


class LocalStore(BlobStore):
    def __init__(self, root: str) -> None:
        self._root = root

    async def put(self, key: str, data: bytes) -> None:
        await asyncio.to_thread(self._write, key, data)

    async def get(self, key: str) -> bytes:
        return await asyncio.to_thread(self._read, key)

    def _write(self, key: str, data: bytes) -> None:
        with open(f"{self._root}/{key}", "wb") as f:
            f.write(data)

    def _read(self, key: str) -> bytes:
        with open(f"{self._root}/{key}", "rb") as f:
            return f.read()
