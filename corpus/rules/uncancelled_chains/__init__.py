"""Coroutines awaited only inside a task nothing can cancel.

`deploy_task = asyncio.create_task(self._deploy(...))` held only where it is
tested (`if deploy_task.done(): url = await deploy_task`, an await of a task
already ended) runs in a task nothing can cancel; a private coroutine of
the same module that `_deploy` awaits in place, at every call of it in
the tree (`await self._find_environment()`), runs in that task too and
meets no cancellation, and so does one of another module (`probes.py`).
The twins are also awaited by a coroutine a caller may cancel.
"""
