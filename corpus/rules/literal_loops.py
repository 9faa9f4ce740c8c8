"""A loop over a literal that lists values (`for task in (first, second):`)
goes through each of them: a release of its name in the body releases each
value the literal names. A hedged request that cancels both attempts in a
finally owns them across its waits, whatever else the function names
`task`; one that cancels them only in `except Exception` does not, and a
literal that leaves one out leaves that one unowned.
"""

import asyncio
from typing import Any, Awaitable, Callable, Optional


class Hedger:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.hedged = False
        self.spare: Any = None

    # Fine: the finally cancels both attempts, wherever the wait ends.
    async def race(self, attempt: Callable[[], Awaitable[Any]]) -> Any:
        first = asyncio.create_task(attempt())
        second: Optional[asyncio.Task] = None
        try:
            await asyncio.wait({first}, timeout=self.delay)
            if first.done() and first.exception() is None:
                return first.result()
            second = asyncio.create_task(attempt())
            pending = {first, second}
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    if task.exception() is None:
                        self.hedged = task is second
                        return task.result()
            return None
        finally:
            for task in (first, second):
                if task is not None and not task.done():
                    task.cancel()

    # Buggy twin: only an error cancels the attempts.
    async def race_on_error(self, attempt: Callable[[], Awaitable[Any]]) -> Any:
        first = asyncio.create_task(attempt())
        second = asyncio.create_task(attempt())
        try:
            done, _ = await asyncio.wait([first, second], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN101
        except Exception:
            for task in [first, second]:
                task.cancel()
            raise
        for task in [first, second]:
            task.cancel()
        return done.pop().result()

    # Buggy twin: the literal leaves the second attempt out.
    async def race_forgetting(self, attempt: Callable[[], Awaitable[Any]]) -> Any:
        first = asyncio.create_task(attempt())
        second = asyncio.create_task(attempt())
        try:
            done, _ = await asyncio.wait([first, second], return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
            self.spare = second
            return done.pop().result()
        finally:
            for task in (first,):
                task.cancel()
