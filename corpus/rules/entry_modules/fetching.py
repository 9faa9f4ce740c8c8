"""The same helper in a module that runs nothing itself."""

import asyncio
from typing import Any


# Buggy: a caller's timeout cancels the wait and leaves the fetches running.
async def fetch_all(urls: list, fetch: Any) -> list:
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    done, _ = await asyncio.wait(tasks)  # expect: CAN102
    return [t.result() for t in done]
