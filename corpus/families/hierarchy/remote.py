"""The remote stores' shared code: one streaming download for all of them,
which closes its stream only on errors (a gap every remote store inherits).
"""

from __future__ import annotations

import abc
from typing import Any

from .base import BlobStore


class RemoteStore(BlobStore, abc.ABC):
    def __init__(self, http: Any) -> None:
        self._http = http

    @abc.abstractmethod
    def _url(self, key: str) -> str: ...

    async def get(self, key: str) -> bytes:
        stream = await self._http.open_download(self._url(key))
        try:
            data = await stream.read()  # expect: CAN101
        except Exception:
            await stream.close()
            raise
        await stream.close()
        return data
