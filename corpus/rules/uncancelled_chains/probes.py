"""A probe another module awaits."""

import asyncio
from typing import Any


# Buggy (as a scan reads it): awaited only by the deploy task of another
# module (deploys.py), but only a module's own calls count.
async def _probe_region(region: str) -> Any:
    proc = await asyncio.create_subprocess_exec("az", "group", "show", region, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()  # expect: CAN102
    return out
