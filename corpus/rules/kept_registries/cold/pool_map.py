"""Same class name, same module name: a map that only remembers the keys."""

from typing import Any, List


class ConnMap:
    def __init__(self) -> None:
        self._seen: List[str] = []

    def get(self, host: str, database: str) -> None:
        return None

    def set(self, host: str, database: str, conn: Any) -> None:
        self._seen.append(f"{host}/{database}")

    def remove(self, conn: Any) -> None:
        self._seen.clear()

    async def close_all(self) -> None:
        self._seen.clear()
