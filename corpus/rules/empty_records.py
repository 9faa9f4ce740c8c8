"""A record of the tree (a dataclass) made with nothing of the function's in
it holds nothing yet: each field at its default. What is stored in it later
is followed on its own, so the empty record is no resource across an await
before the first store.
"""

from dataclasses import dataclass
from typing import Any


@dataclass
class Handoff:
    stream: Any = None
    session: Any = None

    async def cleanup(self) -> None:
        if self.stream is not None:
            await self.stream.aclose()
            self.stream = None
        if self.session is not None:
            await self.session.close()
            self.session = None


# Fine: at the await the record is still empty; the stream is stored in it
# only once the await has returned.
async def detach(src: Any) -> Handoff:
    res = Handoff()
    try:
        res.stream = await src.detach_stream()
        res.session = src.session
        src.session = None
    except Exception:
        await res.cleanup()
        raise
    return res


# Leaks: the record is made with a stream this function opened, and only
# `except Exception` cleans it up across the second await.
async def detach_opened(src: Any) -> Handoff:
    res = Handoff(stream=await src.open_stream())
    try:
        res.session = await src.detach_session()  # expect: CAN101
    except Exception:
        await res.cleanup()
        raise
    return res
