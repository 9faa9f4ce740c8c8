"""A two-level hierarchy (corpus/families/README.md): BlobStore, an
abstract RemoteStore below it, and the stores below that. The family is
BlobStore's: RemoteStore is abstract (no backend), and its own family (two
of the same stores) is folded into BlobStore's. S3 and GCS inherit
RemoteStore's get, two levels from the family's base.
"""

from __future__ import annotations

import abc
from typing import Any


class BlobStore(abc.ABC):
    @abc.abstractmethod
    async def put(self, key: str, data: bytes) -> None: ...

    @abc.abstractmethod
    async def get(self, key: str) -> bytes: ...
