import asyncio
import logging

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name):
        self.name = name

    # Fine: the runner's task awaits it as its last step (runner.py), and
    # nothing in this module awaits it: its frames are that task's.
    async def run(self, params):
        try:
            await self._serve(params)
        except asyncio.CancelledError:
            log.info("worker %s stopped", self.name)

    async def _serve(self, params):
        await asyncio.sleep(params)

    # Buggy: the runner's health check awaits it and reports on.
    async def check(self):
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # expect: CAN401
            return False
        return True

    # Buggy: awaited by a task, but once per item of a loop, which goes
    # on to the next worker.
    async def step(self):
        try:
            await asyncio.sleep(0.1)
        except asyncio.CancelledError:  # expect: CAN401
            log.info("step of %s interrupted", self.name)
