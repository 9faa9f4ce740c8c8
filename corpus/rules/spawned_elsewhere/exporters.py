"""A service class whose loop another module starts as a task on a
module-level object of it (`exporter = MetricsExporter()` ...
`create_task(exporter.export_loop())`)."""

import asyncio


class MetricsExporter:
    def __init__(self) -> None:
        self.pending: list = []

    # Fine: the outermost frame of the task lifespan.py starts and cancels;
    # its cancellation is its own stop.
    async def export_loop(self) -> None:
        try:
            while True:
                await asyncio.sleep(10)
                self.pending.clear()
        except asyncio.CancelledError:
            self.pending.clear()

    # Buggy twin: awaited in place by lifespan.py's flush_now, in its
    # caller's task, whose cancellation it swallows.
    async def flush_once(self) -> None:
        try:
            await asyncio.sleep(0.1)
            self.pending.clear()
        except asyncio.CancelledError:  # expect: CAN401
            pass
