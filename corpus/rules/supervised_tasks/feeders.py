"""Loops other modules run as the last frames of their own tasks."""

import asyncio
from typing import Any


class Feeder:
    def __init__(self, source: Any) -> None:
        self.source = source

    # Fine: only ever the tail of Host's task (hosts.py), awaited there
    # from a closure of the method that starts it.
    async def run(self) -> None:
        try:
            while True:
                await self.source.pull()
        except asyncio.CancelledError:
            return


class InlineFeeder:
    def __init__(self, source: Any) -> None:
        self.source = source

    # Buggy twin: awaited in its caller's task (hosts.py), which goes on.
    async def run(self) -> None:
        try:
            while True:
                await self.source.pull()
        except asyncio.CancelledError:  # expect: CAN401
            return
