"""GCS: its own put, RemoteStore's get."""

from __future__ import annotations

from ..remote import RemoteStore


class GcsStore(RemoteStore):
    def _url(self, key: str) -> str:
        return f"https://gcs.example/{key}"

    async def put(self, key: str, data: bytes) -> None:
        await self._http.post(self._url(key), data=data)
