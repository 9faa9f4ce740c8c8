"""A probe another module awaits."""

import asyncio
from typing import Any


# Fine: awaited in place only by the deploy task of another module
# (deploys.py), which nothing can cancel: it runs in that task.
async def _probe_region(region: str) -> Any:
    proc = await asyncio.create_subprocess_exec("az", "group", "show", region, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return out
