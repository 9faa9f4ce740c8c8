"""A deployment that runs as a task nobody can cancel."""

import asyncio
from typing import Any, AsyncIterator

from .probes import _probe_region


class Deployer:
    # Fine: runs only in the deploy task, nothing can cancel it.
    async def _find_environment(self, region: str) -> Any:
        proc = await asyncio.create_subprocess_exec("az", "env", "list", region, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        return out

    # Buggy twin: also awaited by status(), in a caller's task.
    async def _read_logs(self, name: str) -> Any:
        proc = await asyncio.create_subprocess_exec("az", "logs", name, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()  # expect: CAN102
        return out

    async def _deploy(self, region: str, events: "asyncio.Queue[str]") -> str:
        await self._find_environment(region)
        await _probe_region(region)
        await self._read_logs(region)
        await events.put("done")
        return "https://app"

    # Buggy: a consumer that stops iterating leaves the deploy task running.
    async def deploy(self, region: str) -> AsyncIterator[str]:
        events: "asyncio.Queue[str]" = asyncio.Queue()
        deploy_task = asyncio.create_task(self._deploy(region, events))
        while True:
            if deploy_task.done():
                url = await deploy_task
                yield url
                break
            try:
                yield await asyncio.wait_for(events.get(), timeout=0.1)  # expect: CAN102
            except asyncio.TimeoutError:
                continue

    async def status(self, name: str) -> Any:
        return await self._read_logs(name)
