"""Runs tools whose client library may leak a CancelledError of its own."""

import asyncio
from typing import Any

from .cancellation import task_is_cancelling, task_is_named


class ToolRunner:
    def __init__(self, client: Any) -> None:
        self.client = client

    # Fine: a cancellation of the runner's task is raised again.
    async def call_tool(self, name: str, args: Any) -> Any:
        try:
            return await self.client.call(name, args)
        except asyncio.CancelledError:
            if task_is_cancelling():
                raise
            return {"error": "the tool call was cancelled by the server"}

    # Buggy: the helper asks the task's name, not whether it is cancelled.
    async def call_named(self, name: str, args: Any) -> Any:
        try:
            return await self.client.call(name, args)
        except asyncio.CancelledError:  # expect: CAN401
            if task_is_named("shutdown"):
                raise
            return {"error": "the tool call was cancelled by the server"}
