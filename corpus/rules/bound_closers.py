"""A bound release method holds its object: `closers.append(session.close)`
keeps the session reachable, and calling each closer releases it. A
handler that awaits every closer owns what was put there; a closer list
only the normal path drains does not.
"""

import asyncio
from typing import Any, Callable, List

import aiohttp


class DriverBoot:
    def __init__(self, url: str) -> None:
        self.url = url

    # Fine: the bare except awaits each closer, the session's close too.
    async def start(self, timeout: float) -> Any:
        closers: List[Callable[[], Any]] = []
        try:
            session = aiohttp.ClientSession()
            closers.append(session.close)
            await asyncio.wait_for(session.get(self.url), timeout=timeout)
            return session, closers
        except:  # noqa: E722
            for closer in reversed(closers):
                await closer()
            raise

    # Buggy twin: only a failed request drains the closers.
    async def start_loose(self, timeout: float) -> Any:
        closers: List[Callable[[], Any]] = []
        session = aiohttp.ClientSession()
        closers.append(session.close)
        try:
            await asyncio.wait_for(session.get(self.url), timeout=timeout)  # expect: CAN102
        except aiohttp.ClientError:
            for closer in closers:
                await closer()
            raise
        return session, closers
