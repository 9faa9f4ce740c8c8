"""Code switched off with a constant test never runs.

`if False:` (or `if 0:`, `if None:`) around a block that an author kept for
later: nothing in it opens anything or suspends, so no window starts there.
A test on a name (`if ENABLE_RESEARCH:`) may be true at run time and is
read as code that runs. `if False: yield`, the idiom that makes a function
a generator, still makes it one.
"""

import asyncio
from typing import Any, AsyncIterator

ENABLE_RESEARCH = False


class Answerer:
    def __init__(self, model: Any, researcher: Any) -> None:
        self.model = model
        self.researcher = researcher

    # Fine: the research branch is switched off by a literal.
    async def answer(self, question: str) -> AsyncIterator[str]:
        if False:  # kept for the next release
            probe = asyncio.create_task(self.researcher.run(question))
            await self.model.warm_up()
            yield await probe
        if 0:
            side = asyncio.create_task(self.researcher.prefetch(question))
            await self.model.warm_up()
            await side
        yield await self.model.complete(question)

    # The same block under a flag that may be on: a real window.
    async def answer_flagged(self, question: str) -> AsyncIterator[str]:
        if ENABLE_RESEARCH:
            probe = asyncio.create_task(self.researcher.run(question))
            await self.model.warm_up()  # expect: CAN102
            yield await probe
        yield await self.model.complete(question)


class Feed:
    # A stub made a generator by a yield that never runs: an async
    # iterator whose subclasses fill it in.
    async def updates(self) -> AsyncIterator[str]:
        if False:
            yield ""

    async def relay(self, sink: Any) -> None:
        async for item in self.updates():
            await sink.put(item)
