"""S3: its own put, RemoteStore's get."""

from __future__ import annotations

import asyncio

from ..remote import RemoteStore


class S3Store(RemoteStore):
    def _url(self, key: str) -> str:
        return f"https://s3.example/{key}"

    async def put(self, key: str, data: bytes) -> None:
        upload = await self._http.start_upload(self._url(key))
        try:
            await upload.write(data)
            await upload.commit()
        except BaseException:
            await asyncio.shield(upload.abort())
            raise
