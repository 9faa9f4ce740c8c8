"""A create known only by its name is a request a cancellation can cut
while the server still makes the resource. An async factory of the tree
that suspends nowhere (`await State.create(agent)` building an object in
memory) does no I/O at all: a timeout around its caller cuts nothing
there, whatever the factory is called; nor does an alternative
constructor of a class that owns nothing (annotated to return its class).
One that awaits a request for an object its class deletes in close() does.
"""

import asyncio
from typing import Any


class BrowsingState:
    @staticmethod
    async def create(owner: Any) -> "BrowsingState":
        state = BrowsingState(owner)
        return state

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self.pages: list = []


class LiveBox:
    @classmethod
    async def create(cls, api: Any, image: str) -> "LiveBox":
        handle = await api.post("/boxes", json={"image": image})
        return cls(api, handle)

    def __init__(self, api: Any, handle: Any) -> None:
        self.api = api
        self.handle = handle

    async def close(self) -> None:
        await self.api.delete(f"/boxes/{self.handle}")
        self.api.close()


class PageLens:
    # An alternative constructor of a class that owns nothing: it awaits a
    # script in the page it wraps, but makes nothing on a server.
    @classmethod
    async def create_instance(cls, page: Any) -> "PageLens":
        lens = cls(page)
        await page.evaluate("() => 1")
        return lens

    def __init__(self, page: Any) -> None:
        self.page = page


class Browsing:
    def __init__(self, owner: Any, api: Any) -> None:
        self.owner = owner
        self.api = api
        self.state: Any = None
        self.box: Any = None

    async def prepare(self) -> None:
        if self.state is None:
            self.state = await BrowsingState.create(self.owner)

    async def snap(self, page: Any) -> Any:
        lens = await PageLens.create_instance(page)
        return lens.page

    async def boot(self) -> None:
        if self.box is None:
            self.box = await LiveBox.create(self.api, "chrome")

    # Fine: prepare only builds an object in memory.
    async def step(self) -> None:
        await asyncio.wait_for(self.prepare(), timeout=5)

    # Fine: snap builds a lens in memory (its class owns nothing).
    async def look(self, page: Any) -> Any:
        return await asyncio.wait_for(self.snap(page), timeout=5)

    # Buggy twin: boot awaits the box's create, cut by the timeout.
    async def step_remote(self) -> None:
        await asyncio.wait_for(self.boot(), timeout=5)  # expect: CAN201
