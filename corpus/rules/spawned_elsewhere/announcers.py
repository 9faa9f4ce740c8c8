"""Services whose `run` is started as a task by another module, on a
parameter annotated with the class (announce_group.py)."""

import asyncio


class Announcer:
    def __init__(self, prefix, checks) -> None:
        self.prefix = prefix
        self.checks = checks

    # Fine: started only by announce_group.start_all, on each element of a
    # parameter annotated `Iterable[Announcer]`: its own task's end.
    async def run(self) -> None:
        try:
            while True:
                await self.checks.probe(self.prefix)
                await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            await self.checks.withdraw(self.prefix)


class Beacon:
    def __init__(self, link) -> None:
        self.link = link

    # Fine: started by announce_group.start_one on a parameter annotated
    # `Beacon`.
    async def run(self) -> None:
        try:
            while True:
                await self.link.ping()
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            self.link.mark_down()


class HopForwarder:
    def __init__(self, link) -> None:
        self.link = link

    # Buggy: announce_group.start_untyped hands an unannotated parameter to
    # create_task; nothing says this method is what runs there, and callers
    # may await it in their own task.
    async def run(self) -> None:
        try:
            while True:
                await self.link.forward()
        except asyncio.CancelledError:  # expect: CAN401
            self.link.mark_down()
