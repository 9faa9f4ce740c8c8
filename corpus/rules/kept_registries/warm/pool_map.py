"""A registry that keeps the connections it is given."""

import threading
from typing import Any, Dict, Optional, Tuple


class ConnMap:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._map: Dict[Tuple[str, str], Any] = {}

    def get(self, host: str, database: str) -> Optional[Any]:
        with self._lock:
            return self._map.get((host, database))

    def set(self, host: str, database: str, conn: Any) -> None:
        with self._lock:
            self._map[(host, database)] = conn

    def remove(self, conn: Any) -> None:
        with self._lock:
            for key, value in list(self._map.items()):
                if value is conn:
                    del self._map[key]

    async def close_all(self) -> None:
        # (each entry stays registered until it is closed)
        for key, conn in list(self._map.items()):
            await conn.close()
            with self._lock:
                self._map.pop(key, None)
