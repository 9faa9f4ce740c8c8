"""A best-effort teardown whose closes are named by their words.

`try: await rpc.hSvcCloseHandle(self.dce, h)` / `except: pass` in a loop
over the handles, `try: await self.close_handle(h)`: each close of one
named thing is kept from stopping the rest of the teardown, as `await
x.close()` is. A try that awaits something else (a query, a flush) under
the same handler still drops whatever that await raises, a cancellation
included.
"""

from typing import Any

rpc: Any = None


class SvcManager:
    def __init__(self, dce: Any) -> None:
        self.dce = dce
        self.handles: list = []
        self.bind: Any = None

    async def close_handle(self, handle: Any) -> Any:
        return await rpc.hSvcCloseHandle(self.dce, handle)

    # Fine: every await in each try closes one handle.
    async def close(self) -> None:
        for h in self.handles:
            try:
                await self.close_handle(h)
            except:
                pass
        try:
            await rpc.hRCloseServiceHandle(self.dce, self.bind)
        except:
            pass
        try:
            await rpc.hDRSUnbind(self.dce, self.bind)
        except:
            pass

    # Buggy: a status query is no close; its cancellation is dropped.
    async def refresh(self) -> None:
        for h in self.handles:
            try:
                await rpc.hSvcQueryStatus(self.dce, h)
            except:  # expect: CAN401
                pass
