"""Inline suppression.

A finding whose primary line carries ``# cancelaudit: ignore[RULE]`` or
``# noqa: RULE`` is reported with ``"suppressed": true`` and does not count.
The expectation runner reads ``# expect-suppressed: RULE`` (written after the
suppression comment, on the same line) and checks that the finding is there,
suppressed. A suppression for another rule hides nothing.
"""

import asyncio
from typing import Any


class Registry:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._lock = asyncio.Lock()
        self._ready = asyncio.Event()
        self._tasks: dict[str, asyncio.Task] = {}
        self._conns: list[Any] = []
        self._procs: set[Any] = set()

    async def _run(self, name: str) -> None:
        await asyncio.sleep(1)

    # Buggy (CAN102), suppressed with the tool's own comment.
    async def start(self, name: str) -> None:
        t = asyncio.create_task(self._run(name))
        async with self._lock:  # cancelaudit: ignore[CAN102]  # expect-suppressed: CAN102
            self._tasks[name] = t

    # Buggy (CAN101), suppressed with a flake8-style noqa.
    async def connect(self, url: str) -> Any:
        ws = await self._session.ws_connect(url)
        try:
            await asyncio.wait_for(ws.send_str("hello"), timeout=5)  # noqa: CAN101  # expect-suppressed: CAN101
        except Exception:
            await ws.close()
            raise
        self._conns.append(ws)
        return ws

    # Buggy (CAN102): the noqa names another rule, so the finding stands.
    async def spawn(self, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        await self._ready.wait()  # noqa: CAN101  # expect: CAN102
        self._procs.add(proc)
