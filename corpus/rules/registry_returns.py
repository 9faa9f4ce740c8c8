"""A helper that stores what it makes in a registry of its own object and
hands back the registry's entry (`self._workspaces[name] = Slot(...)`,
`return self._workspaces[name]`): the object keeps it, and its close
closes every entry, so the caller only borrows what it gets. A helper that
hands back what it made without keeping it leaves the caller the owner.
"""

import asyncio
from typing import Any, Dict


class WorkspaceSlot:
    def __init__(self, context: Any) -> None:
        self.context = context
        self.gate = asyncio.Semaphore(4)

    async def close(self) -> None:
        await self.context.close()


class WorkspacePool:
    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self._workspaces: Dict[str, WorkspaceSlot] = {}
        self._lock = asyncio.Lock()

    async def _open_workspace(self, name: str) -> WorkspaceSlot:
        context = await self.browser.new_context()
        self._workspaces[name] = WorkspaceSlot(context)
        return self._workspaces[name]

    async def _open_loose_workspace(self, name: str) -> WorkspaceSlot:
        context = await self.browser.new_context()
        return WorkspaceSlot(context)

    # Fine: the pool keeps the slot from the moment it is made.
    async def new_tab(self, name: str) -> Any:
        async with self._lock:
            slot = self._workspaces.get(name)
            if slot is None:
                slot = await self._open_workspace(name)
        await slot.gate.acquire()
        try:
            page = await slot.context.new_page()
        except Exception:
            slot.gate.release()
            raise
        return page

    # Buggy twin: nothing keeps the loose slot while the gate is awaited.
    async def new_loose_tab(self, name: str) -> Any:
        slot = await self._open_loose_workspace(name)
        await slot.gate.acquire()  # expect: CAN102
        try:
            return await slot.context.new_page()
        except BaseException:
            await slot.close()
            raise

    async def close(self) -> None:
        for slot in self._workspaces.values():
            await slot.close()
