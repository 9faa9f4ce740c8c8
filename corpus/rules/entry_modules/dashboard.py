"""A dashboard that refreshes the report under a timeout."""

import asyncio
from typing import Any

from . import jobs
from .commands import handle_report


async def refresh(args: Any) -> None:
    await asyncio.wait_for(handle_report(args), 30)


async def compact(args: Any) -> None:
    await asyncio.wait_for(jobs.handle_vacuum(args), 60)
