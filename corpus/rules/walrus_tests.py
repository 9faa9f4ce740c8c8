"""`if tasks := [create_task(...) for ...]:` tests the name it binds, as
`if tasks:` does: where the list is empty, nothing was started, and no pass
of the loop goes round again holding tasks. Where the test is of something
else (`if started:` of a count), the list may hold tasks that the branch
does not settle.
"""

import asyncio
import logging
from typing import Any, List

LOG = logging.getLogger(__name__)


class PolicySweeper:
    def __init__(self, store: Any) -> None:
        self._store = store
        self._running = True

    async def _apply(self, policy: Any) -> None:
        await self._store.delete_expired(policy)

    async def sweep_hourly(self) -> None:
        while self._running:
            await asyncio.sleep(3600)
            try:
                policies: List[Any] = await self._store.policies()
                if tasks := [asyncio.create_task(self._apply(p)) for p in policies]:
                    await asyncio.gather(*tasks, return_exceptions=True)
            except Exception:
                LOG.exception("sweep failed")

    # Buggy twin: the test is of the policy count, and a due list with no
    # policy marked urgent is never awaited; the next pass's sleep holds it.
    async def sweep_urgent(self) -> None:
        while self._running:
            await asyncio.sleep(3600)  # expect: CAN102
            try:
                policies: List[Any] = await self._store.policies()
                tasks = [asyncio.create_task(self._apply(p)) for p in policies]
                if urgent := sum(1 for p in policies if p.urgent):
                    LOG.info("%d urgent policies", urgent)
                    await asyncio.gather(*tasks, return_exceptions=True)
            except Exception:
                LOG.exception("sweep failed")
