"""Plain records of the package."""

import asyncio
from dataclasses import dataclass


@dataclass
class AppRunner:
    name: str
    retries: int

    async def setup(self) -> None:
        await asyncio.sleep(0)
