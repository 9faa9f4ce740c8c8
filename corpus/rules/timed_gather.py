"""A timed wait passes its cancellation on, as a plain await does.

`await asyncio.wait_for(asyncio.gather(*tasks), timeout)`: cancelled,
wait_for cancels the gather, and the gather cancels every task it waits
for. Tasks taken out of their registry for that wait are settled by it,
on cancellation too. A shield between them keeps the tasks running.
"""

import asyncio


class Pool:
    def __init__(self) -> None:
        self.tasks: set = set()

    # Fine: the timed gather is cancelled with the stop, and cancels the
    # tasks; on a timeout they are cancelled by hand.
    async def stop(self, grace: float) -> None:
        pending = list(self.tasks)
        self.tasks.clear()
        try:
            await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), timeout=grace)
        except asyncio.TimeoutError:
            for task in pending:
                task.cancel()

    # Buggy: shielded, the gather goes on without this stop, and the
    # tasks taken out of the registry are left to nobody.
    async def stop_shielded(self, grace: float) -> None:
        pending = list(self.tasks)
        self.tasks.clear()
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*pending)), timeout=grace)  # expect: CAN301
        except asyncio.TimeoutError:
            for task in pending:
                task.cancel()


# Fine: the tasks are only awaited through the timed gather, which cancels
# them if this await is cancelled or times out.
async def run_all(jobs: list) -> list:
    tasks = [asyncio.create_task(job()) for job in jobs]
    return await asyncio.wait_for(asyncio.gather(*tasks), timeout=10)
