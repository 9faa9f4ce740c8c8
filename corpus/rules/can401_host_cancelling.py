"""CAN401: the cancelling() test behind a function of the module.

A plugin host calls each plugin's hook and contains what the hook raises,
`CancelledError` too when the hook raised it on its own (an internal
timeout done with cancellation). It tells that apart from a cancellation of
its own task by the task's `cancelling()` count, asked through a small
function of the module (`if _host_cancelled(): raise`, or comparing
`_pending_cancels()` before and after): the caller's cancellation is raised
again. A helper that asks something else does not tell them apart.
"""

import asyncio
from typing import Any


def _host_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _pending_cancels() -> int:
    task = asyncio.current_task()
    return task.cancelling() if task is not None else 0


def _plugin_disabled(plugin: Any) -> bool:
    return not getattr(plugin, "enabled", True)


class PluginHost:
    def __init__(self, plugins: Any) -> None:
        self.plugins = plugins

    # Fine: a cancellation of the host task is raised again.
    async def notify(self, event: Any) -> None:
        for plugin in self.plugins:
            try:
                await plugin.on_event(event)
            except asyncio.CancelledError:
                if _host_cancelled():
                    raise
                print("plugin cancelled itself", plugin)

    # Fine: the count rose while the hook ran, so the host was cancelled.
    async def start_all(self) -> None:
        for plugin in self.plugins:
            before = _pending_cancels()
            try:
                await plugin.start()
            except asyncio.CancelledError:
                if _pending_cancels() > before:
                    raise
                print("plugin start cancelled itself", plugin)

    # The helper asks about the plugin, not the task: a caller's cancel is lost.
    async def flush_all(self) -> None:
        for plugin in self.plugins:
            try:
                await plugin.flush()
            except asyncio.CancelledError:  # expect: CAN401
                if _plugin_disabled(plugin):
                    raise
                print("plugin flush cancelled", plugin)
