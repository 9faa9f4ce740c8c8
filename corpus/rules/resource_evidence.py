"""What makes a value a resource when no catalog says so.

A call whose name only sounds like a resource (create*, open*, start*,
connect*) counts when the function keeps the value (releases it, stores it,
hands it to its caller) or when the tree says the callee returns one; plain
data never does: a value annotated as plain data, the result of a builtin
that makes data, a callee annotated to return plain data. A helper annotated
`-> NoReturn` ends the path like a raise.
"""

import asyncio
from typing import NoReturn, Optional


class Api:
    async def create_pull_request(self, title: str) -> str:
        await asyncio.sleep(0)
        return "https://example.invalid/pr/1"

    async def start_job(self, name: str) -> Optional[dict]:
        await asyncio.sleep(0)
        return {"name": name}

    async def create_box(self, name: str):
        await asyncio.sleep(0)
        return object()


def _fail(message: str) -> NoReturn:
    raise RuntimeError(message)


class Flows:
    def __init__(self, api: Api) -> None:
        self._api = api
        self._boxes: dict[str, object] = {}

    # Fine: a URL string, not something to release.
    async def open_pr(self) -> None:
        url = await self._api.create_pull_request("fix")
        await self.note(url)

    # Fine: annotated as plain data.
    async def start(self) -> None:
        status: bool = await self.start_remote_check()
        await self.note(status)

    # Fine: `str(...)` makes data.
    async def keyed(self, message: object) -> None:
        key = str(message)
        await self.note(key)

    # Fine: the callee returns a dict.
    async def job(self) -> None:
        info = await self._api.start_job("x")
        await self.note(info)

    # Buggy: the box is stored on self after an await; the name says
    # resource and the function keeps it.
    async def make_box(self, name: str) -> None:
        box = await self._api.create_box(name)
        await self.note(name)  # expect: CAN102
        self._boxes[name] = box

    # Fine: a name that sounds like a resource, but the function neither
    # releases nor keeps it.
    async def check(self, name: str) -> None:
        probe = await self._api.create_box(name)
        await self.note(repr(probe))

    # Fine: the handler's helper always raises, so the path where `box`
    # would leak ends there... and the handler does release it first.
    async def guarded(self, name: str) -> None:
        box = await self._api.create_box(name)
        try:
            await self.note(name)
        except BaseException:
            await self.drop(box)
            _fail("could not note " + name)
        self._boxes[name] = box

    async def start_remote_check(self) -> bool:
        await asyncio.sleep(0)
        return True

    async def note(self, value: object) -> None:
        await asyncio.sleep(0)

    async def drop(self, box: object) -> None:
        await asyncio.sleep(0)
        self._boxes.pop(str(box), None)


class UsageLog:
    """Bookkeeping only: what was used, to clean up later."""

    def __init__(self) -> None:
        self.models: list[object] = []

    def record(self, model: object) -> None:
        self.models.append(model)


async def close_recorded(log: UsageLog) -> None:
    for model in log.models:
        await asyncio.sleep(0)
        del model


# Fine: a cleanup helper runs over the log in the finally, but the log is an
# object of a class of the tree that owns nothing: there is nothing to leak
# before the try.
async def run_with_log(session: object) -> None:
    log = UsageLog()
    await asyncio.sleep(0)
    try:
        log.record(session)
        await asyncio.sleep(0)
    finally:
        await close_recorded(log)
