import asyncio
from typing import Any

from . import makers


# Fine: the manifest is a dict built in the thread.
async def publish(root: str, names: list, api: Any) -> None:
    manifest = await asyncio.to_thread(makers.create_manifest, root, names)
    await api.post("/manifests", manifest["sha256"])


# Buggy: the spool file opened in the thread is lost on a cancel.
async def record(path: str, stream: Any) -> None:
    spool = await asyncio.to_thread(makers.create_spool, path)  # expect: CAN203
    try:
        async for chunk in stream:
            spool.write(chunk)
    finally:
        spool.close()
