"""A maker inherited through super(), and values a helper lends.

`group = await super().create_group(...)` is the base class's method: it
registers the group in `self._groups` (through a helper that keeps it and
hands it back) before it returns, so the override only borrows it. A base
that hands back a group it keeps nowhere leaves it to the caller.
"""

import asyncio


class BaseWorker:
    def __init__(self, bus):
        self._bus = bus
        self._groups = {}

    def _register_group(self, names):
        group = asyncio.Future()
        self._groups[id(group)] = group
        return group

    async def create_group(self, names):
        await self._bus.ready(names)
        group = self._register_group(names)
        for name in names:
            await self._bus.send(name, "start")
        return group

    async def create_detached_group(self, names):
        await self._bus.ready(names)
        return await self._bus.open_group(names)


class UIWorker(BaseWorker):
    # Fine: the base registered the group before handing it back.
    async def create_group(self, names):
        group = await super().create_group(names)
        await self._bus.send("ui", group)
        return group

    # Buggy: this group is kept by nobody until the announcement is sent.
    async def create_detached_group(self, names):
        group = await super().create_detached_group(names)
        await self._bus.send("ui", group)  # expect: CAN102
        self._groups[id(group)] = group
        return group
