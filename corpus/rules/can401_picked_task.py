"""A task started on a method picked by a condition.

`run = self._run_once if once else self._run_loop` then
`asyncio.create_task(run())`: either method is the outermost frame of the
task, whose cancellation is its own stop; so with the pick written in place,
`ensure_future(self._loop() if again else self._once())`. The twin awaits
the picked method in the caller's task, where the caller's cancellation is
swallowed.
"""

import asyncio
from typing import Any, Callable


class Timer:
    def __init__(self, interval: float, callback: Callable[[], Any], once: bool = False) -> None:
        self.interval = interval
        self.callback = callback
        run = self._run_once if once else self._run_loop
        self._task = asyncio.get_event_loop().create_task(run())

    # Fine: the timer's own task.
    async def _run_once(self) -> None:
        try:
            await asyncio.sleep(self.interval)
            self.callback()
        except asyncio.CancelledError:
            pass

    # Fine: the timer's own task.
    async def _run_loop(self) -> None:
        while True:
            try:
                await asyncio.sleep(self.interval)
                self.callback()
            except asyncio.CancelledError:
                break

    def cancel(self) -> None:
        self._task.cancel()


class InlineTimer:
    def __init__(self, interval: float, callback: Callable[[], Any]) -> None:
        self.interval = interval
        self.callback = callback

    # Buggy twin: run in the caller's task, which goes on as if not cancelled.
    async def _tick(self) -> None:
        try:
            await asyncio.sleep(self.interval)
            self.callback()
        except asyncio.CancelledError:  # expect: CAN401
            pass

    async def _tick_twice(self) -> None:
        await self._tick()
        await self._tick()

    async def run(self, twice: bool) -> None:
        step = self._tick_twice if twice else self._tick
        await step()


class StreamRunner:
    def __init__(self, again: bool) -> None:
        self.again = again
        self._runner: Any = None

    # Fine: the runner's own task, cancelled by __aexit__.
    async def stream_forever(self) -> None:
        while True:
            try:
                await self._stream_once()
            except asyncio.CancelledError:
                break

    async def _stream_once(self) -> None:
        await asyncio.sleep(1)

    async def __aenter__(self) -> "StreamRunner":
        self._runner = asyncio.ensure_future(self.stream_forever() if self.again else self._stream_once())
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._runner:
            self._runner.cancel()
