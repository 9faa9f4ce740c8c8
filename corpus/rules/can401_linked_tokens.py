"""CAN401 and a task linked to a cancellation token.

`cancellation_token.link_future(task)` hands the task to the token, which
cancels it when the user stops the run: the function itself set up that
way of cancelling the task, as a `cancel_task_safe(task)` helper does. A
`try: await task` / `except CancelledError:` right after turns the token's
cancellation into a result, the same idiom as `t.cancel(); await t`. A
task handed to nothing that cancels it is awaited like any other call: the
cancellation caught is the caller's.
"""

import asyncio
from typing import Any


class Executor:
    def __init__(self, container: Any) -> None:
        self._container = container

    # Fine: the token cancels exec_task; the handler reports that.
    async def run_command(self, command: str, cancellation_token: Any) -> tuple[str, int]:
        exec_task = asyncio.create_task(asyncio.to_thread(self._container.exec_run, command))
        cancellation_token.link_future(exec_task)
        try:
            result = await exec_task
            return result.output.decode(), result.exit_code
        except asyncio.CancelledError:
            return "Code execution was cancelled.", 1

    # Buggy twin: the task is only logged, nothing but the caller can cancel
    # it, so the handler swallows the caller's cancellation.
    async def run_command_unlinked(self, command: str, log: Any) -> tuple[str, int]:
        exec_task = asyncio.create_task(asyncio.to_thread(self._container.exec_run, command))
        log.debug("started %r", exec_task)
        try:
            result = await exec_task
            return result.output.decode(), result.exit_code
        except asyncio.CancelledError:  # expect: CAN401
            return "Code execution was cancelled.", 1
