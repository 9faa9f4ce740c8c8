"""A local bound only to a container self holds (`services =
self._services`) is that container: storing into it registers with self,
as `self._services[key] = svc` does. A caller then borrows what a helper
registered before handing it back. A local bound otherwise (a fresh dict)
registers nothing.
"""

import asyncio
from typing import Any, Dict


class HubService:
    def __init__(self, name: str) -> None:
        self.name = name
        self._task: Any = None

    async def start(self) -> None:
        self._task = asyncio.create_task(asyncio.sleep(3600))

    async def state(self) -> str:
        await asyncio.sleep(0)
        return "up"

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


class ServiceHub:
    def __init__(self) -> None:
        self._services: Dict[str, HubService] = {}

    async def aclose(self) -> None:
        for svc in self._services.values():
            await svc.close()

    async def _launch(self, name: str) -> HubService:
        services = self._services
        svc = HubService(name)
        try:
            await svc.start()
        except BaseException:
            await svc.close()
            raise
        services[name] = svc
        return svc

    # Fine: _launch registered the service with the hub before returning it.
    async def open(self, name: str) -> HubService:
        svc = await self._launch(name)
        await svc.state()
        return svc

    # Buggy twin: a fresh dict is no registry of the hub's.
    async def open_detached(self, name: str) -> HubService:
        pending: Dict[str, HubService] = {}
        svc = HubService(name)
        try:
            await svc.start()
        except BaseException:
            await svc.close()
            raise
        pending[name] = svc
        await svc.state()  # expect: CAN102
        return svc
