from . import background_tasks, tickers


class Outbox:
    """Its loop is started in __init__ through the project's spawner, whose
    name alone says it starts a task."""

    def __init__(self, emit) -> None:
        self._emit = emit
        self._queue: list = []
        background_tasks.create(self.loop(), name="outbox")

    # Fine: the outermost frame of the outbox's own task.
    async def loop(self) -> None:
        import asyncio

        while True:
            try:
                await asyncio.sleep(0.01)
                for m in self._queue:
                    await self._emit(m)
                self._queue.clear()
            except asyncio.CancelledError:
                break


def start(redraw) -> None:
    background_tasks.create(tickers.refresh(0.5, redraw), name="refresh")


async def render(redraw) -> None:
    await tickers.settle(redraw)
