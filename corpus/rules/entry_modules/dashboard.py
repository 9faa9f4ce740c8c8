"""A dashboard that refreshes the report under a timeout."""

import asyncio
from typing import Any

from .commands import handle_report


async def refresh(args: Any) -> None:
    await asyncio.wait_for(handle_report(args), 30)
