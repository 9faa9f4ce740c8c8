"""A tree with no family at all (corpus/families/README.md): no shared
base, no protocol, names that end differently. The directory rule names
the backends: each directory holding a client.py is one (gamma, delta).
"""

from __future__ import annotations

from typing import Any


class GammaConnection:
    def __init__(self, http: Any) -> None:
        self._http = http
        self._open: dict[str, Any] = {}

    async def open(self, name: str) -> Any:
        ws = await self._http.ws_connect(f"/gamma/{name}")
        try:
            await ws.receive_json()  # expect: CAN101
        except Exception:
            await ws.close()
            raise
        self._open[name] = ws
        return ws
