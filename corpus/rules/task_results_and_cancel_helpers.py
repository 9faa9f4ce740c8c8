"""What an awaited task returns, and tasks cancelled through a helper.

`ret = await asyncio.create_task(coro)` binds what the task returned, not
the task: the await passed any cancellation into it and it is done. Tasks
cancelled by a helper (`cancel_task_safe(task=t)`) and then awaited under
`suppress(CancelledError)` are the `t.cancel(); await t` idiom: the
cancellation caught is the task's own.
"""

import asyncio
import contextlib


async def run_node(node, callbacks):
    # Fine: `ret` is the node's result.
    ret = await asyncio.create_task(node.arun())
    await callbacks.on_end(ret)
    return ret


def cancel_task_safe(task, log):
    if not task.done():
        task.cancel()
        log.debug("cancelled %s", task.get_name())


class Node:
    def __init__(self, log):
        self.log = log
        self._tx_tasks = []

    async def shutdown(self):
        for one_task in self._tx_tasks:
            if not one_task.done():
                cancel_task_safe(task=one_task, log=self.log)
        for one_task in self._tx_tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await one_task

    async def drain(self):
        # Buggy: nothing cancelled these; the suppress drops the caller's cancel.
        for one_task in self._tx_tasks:
            with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
                await one_task
