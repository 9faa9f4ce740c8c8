"""Lumen volume mounts: a second module of the lumen backend.

Every file in a backend's directory belongs to that backend, so the finding
below is reported with backend "lumen". `attach_volume` is defined by no other
backend, so it is not a boundary and has no column in the matrix.
"""

from __future__ import annotations

import asyncio
from typing import Any


class LumenMounts:
    """Attach volumes to a workspace and watch them for forced detaches."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._watchers: dict[str, asyncio.Task] = {}

    async def attach_volume(self, volume_id: str, path: str) -> None:
        """Mount `volume_id` at `path` and start watching it.

        Gap: the watcher exists before the attach completes and is stored only
        afterwards; nothing cancels it if the wait is cancelled.
        """
        await self._client.volumes.mount(volume_id, path)
        watcher = asyncio.create_task(self._watch_volume(volume_id))
        await self._client.volumes.wait_attached(volume_id)  # expect: CAN102
        self._watchers[volume_id] = watcher

    async def detach_volume(self, volume_id: str) -> None:
        """Stop watching (synchronously), then unmount."""
        watcher = self._watchers.pop(volume_id, None)
        if watcher is not None:
            watcher.cancel()
        await self._client.volumes.unmount(volume_id)

    async def _watch_volume(self, volume_id: str) -> None:
        async for event in self._client.volumes.events(volume_id):
            if event.kind == "detached":
                return
