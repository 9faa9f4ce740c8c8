# expect-mode: strict
"""CAN202 (strict): a remote create awaited with no shield and no timeout.

Only the caller's cancellation can interrupt it, but that is enough: the
server finishes the create, the response is dropped, the resource leaks.
This file is checked with --strict; its default-rule markers hold in both
modes.
"""

import asyncio
from typing import Any


class Boxes:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._boxes: dict[str, Any] = {}
        self._reapers: set[asyncio.Task] = set()
        self._procs: dict[str, Any] = {}

    # Buggy (strict): a plain awaited create.
    async def create_plain(self, name: str) -> Any:
        box = await self._client.create_sandbox(name=name)  # expect: CAN202
        self._boxes[name] = box
        return box

    # Buggy: under a timeout the rule is CAN201, and never also CAN202.
    async def create_timed(self, name: str) -> Any:
        box = await asyncio.wait_for(self._client.create_sandbox(name=name), 10)  # expect: CAN201
        self._boxes[name] = box
        return box

    # Fine: the settled shape (own task, shielded wait, tracked reaper).
    async def create_settled(self, name: str) -> Any:
        request = asyncio.ensure_future(self._client.create_sandbox(name=name))
        try:
            box = await asyncio.shield(request)
        except BaseException:
            reaper = asyncio.ensure_future(self._delete_when_created(request))
            self._reapers.add(reaper)
            raise
        self._boxes[name] = box
        return box

    async def _delete_when_created(self, request: "asyncio.Future[Any]") -> None:
        try:
            box = await request
        except Exception:
            return
        await box.delete()

    # Fine: a local process is not a remote create, even in strict mode.
    async def run_local(self, argv: list[str]) -> int:
        proc = await asyncio.create_subprocess_exec(*argv)
        self._procs[argv[0]] = proc
        return await proc.wait()
