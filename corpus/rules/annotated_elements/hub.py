import asyncio
from typing import Any, List, Tuple

from .links import Link


class Hub:
    def __init__(self) -> None:
        self._links: List[Link] = []
        self._task: Any = None

    @property
    def links(self) -> Tuple[Link, ...]:
        return tuple(self._links)

    async def _receiving(self) -> None:
        pending = {asyncio.ensure_future(link.receive()): link for link in self.links}
        while pending:
            done, _ = await asyncio.wait(pending.keys(), return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                link = pending.pop(task)
                pending[asyncio.ensure_future(link.receive())] = link

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._receiving())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
