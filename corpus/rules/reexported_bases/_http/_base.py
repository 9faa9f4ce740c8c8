from typing import Any


class HttpBase:
    """An unrelated module that is also called _base."""

    def __init__(self, session: Any) -> None:
        self._session = session

    async def fetch(self, url: str) -> bytes:
        async with self._session.get(url) as resp:
            return await resp.read()
