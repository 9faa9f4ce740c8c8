"""A module function that starts one of its parameters as a task
(`def _start_session_task(app, coro, *, name): app.tasks.create_user_task(
coro)`) starts the argument in that place, the second here: a coroutine
handed there runs as that task, and its handler at the top is the task's
own end. The same coroutine awaited in place swallows its caller's
cancellation.
"""

import asyncio
from typing import Any


def _start_session_task(app: Any, coro: Any, *, name: str) -> Any:
    try:
        wrapper = app.tasks.create_user_task(coro, name=name)
    except RuntimeError:
        coro.close()
        return None
    return wrapper.task


class DeviceLogin:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.status = "idle"

    # Fine: run_flow is the outermost frame of the session's task.
    def begin(self, code: str) -> Any:
        async def run_flow() -> None:
            try:
                while True:
                    await asyncio.sleep(2)
                    if await self.app.poll(code):
                        self.status = "done"
                        return
            except asyncio.CancelledError:
                self.status = "cancelled"
                return

        return _start_session_task(self.app, run_flow(), name=f"login-{code}")

    # Buggy twin: the same loop awaited in place.
    async def wait(self, code: str) -> None:
        async def run_inline() -> None:
            try:
                while True:
                    await asyncio.sleep(2)
                    if await self.app.poll(code):
                        return
            except asyncio.CancelledError:  # expect: CAN401
                return

        await run_inline()
