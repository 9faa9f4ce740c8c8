"""A put on an unbounded queue held by self, through a local alias, never suspends.

``self._inbox = asyncio.Queue()`` (made with no arguments: unbounded), even
when assigned inside a ``with`` block or a nested function of a method, and
``inbox = self._inbox`` in another method: ``await inbox.put(msg)`` returns at
once, so it is no checkpoint for a task made just before. A queue made with a
bound (``asyncio.Queue(maxsize=1)``) may be full, and its put suspends.
"""

import asyncio
import threading
from typing import Any, Optional


class LifespanBridge:
    def __init__(self, app: Any) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._inbox: Optional["asyncio.Queue[Any]"] = None
        self._task: Optional["asyncio.Task[Any]"] = None

    def start(self) -> None:
        with self._lock:
            def make_inbox() -> None:
                self._inbox = asyncio.Queue()

            make_inbox()

    async def startup(self) -> None:
        inbox = self._inbox
        task = asyncio.create_task(self._app(inbox))
        await inbox.put({"type": "lifespan.startup"})
        self._task = task


class BoundedBridge:
    def __init__(self, app: Any) -> None:
        self._app = app
        self._inbox: "asyncio.Queue[Any]" = asyncio.Queue(maxsize=1)
        self._task: Optional["asyncio.Task[Any]"] = None

    async def startup(self) -> None:
        inbox = self._inbox
        task = asyncio.create_task(self._app(inbox))
        await inbox.put({"type": "lifespan.startup"})  # expect: CAN102
        self._task = task
