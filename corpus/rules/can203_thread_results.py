"""CAN203 and what the thread's function says it makes.

Thread work that a caller hands in (a tool, a user's handler) or that
converts data returns data: a cleanup that later touches the value (a
message built from it in a handler) does not make it a resource. A
function whose name says it opens or creates something, run in a pool the
code passes explicitly, makes one.
"""

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

POOL = ThreadPoolExecutor(4)


def _open_spool_file(path: str) -> Any:
    return open(path, "wb")


def record_failure(name: str, result: Any) -> None:
    print("tool failed", name, result)


class Runner:
    # Fine: a caller's tool run in a thread returns data; the handler only
    # reports it.
    async def run_tool(self, name: str, tool: Any, args: dict) -> Any:
        loop = asyncio.get_running_loop()
        result = None
        try:
            result = await loop.run_in_executor(None, functools.partial(tool, **args))
            await self.publish(name, result)
        except Exception:
            record_failure(name, result)
            raise
        return result

    # Buggy: the spool file opened in an explicit pool is dropped if the
    # await is cancelled; the close in the handler never sees it.
    async def spool(self, path: str, chunks: list) -> None:
        loop = asyncio.get_running_loop()
        spool = await loop.run_in_executor(POOL, _open_spool_file, path)  # expect: CAN203
        try:
            for chunk in chunks:
                await loop.run_in_executor(POOL, spool.write, chunk)
        finally:
            spool.close()

    async def publish(self, name: str, result: Any) -> None:
        await asyncio.sleep(0)
        print(name, result)
