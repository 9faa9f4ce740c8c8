"""Two sweeper classes with the same loop, one of which the controller's
main coroutine runs (which one depends on its configuration)."""

import asyncio
import logging

log = logging.getLogger(__name__)


class KubeSweeper:
    # Fine: the last frame of the controller's main task whichever class
    # the controller picked; Ctrl-C's cancellation is its own stop.
    async def run(self) -> None:
        try:
            while True:
                await asyncio.sleep(5)
        except asyncio.CancelledError:
            log.info("kube sweeper stopped")

    # Buggy twin: awaited in place by a coroutine that is no task of the
    # controller's; the cancellation it swallows is its caller's.
    async def check(self) -> bool:
        try:
            await asyncio.sleep(0.1)
        except asyncio.CancelledError:  # expect: CAN401
            return False
        return True


class LocalSweeper:
    def __init__(self) -> None:
        self.swept = 0

    # Fine: as KubeSweeper.run, the controller's main task's last frame.
    async def run(self) -> None:
        try:
            while True:
                self.swept += 1
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            log.info("local sweeper stopped after %d sweeps", self.swept)

    # Buggy twin: as KubeSweeper.check, awaited by probe in its task.
    async def check(self) -> bool:
        ok = True
        try:
            await asyncio.wait_for(asyncio.sleep(0.1), 1)
        except asyncio.CancelledError:  # expect: CAN401
            ok = False
        return ok
