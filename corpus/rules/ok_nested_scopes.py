"""Awaits inside nested ``def``, ``lambda`` and class bodies are not
checkpoints of the enclosing function: defining them does not suspend.

No function in this file has a finding.
"""

import asyncio
from typing import Any, Callable


class Scheduler:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()
        self._callbacks: list[Callable[..., Any]] = []

    async def _run(self) -> None:
        await asyncio.sleep(1)

    # Fine: the nested coroutine's await does not run here.
    async def start_with_retry(self) -> None:
        t = asyncio.create_task(self._run())

        async def retry_later() -> None:
            await asyncio.sleep(5)
            self._tasks.add(asyncio.create_task(self._run()))

        self._callbacks.append(retry_later)
        self._tasks.add(t)

    # Fine: the lambda holds an asynchronous generator expression; its await
    # belongs to the generator, not to this function.
    async def start_with_lambda(self, coros: list[Any]) -> None:
        t = asyncio.create_task(self._run())
        gather_later = lambda: (await c for c in coros)  # noqa: E731
        self._callbacks.append(gather_later)
        self._tasks.add(t)

    # Fine: a class body with an async method, defined but not awaited here.
    async def start_with_handler(self) -> None:
        t = asyncio.create_task(self._run())

        class Handler:
            async def on_message(self, msg: Any) -> None:
                await msg.ack()

        self._callbacks.append(Handler().on_message)
        self._tasks.add(t)
