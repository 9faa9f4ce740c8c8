import asyncio

from .tasks import awaited


class Mirror:
    def __init__(self, remote):
        self.remote = remote

    # Buggy: `refresh` is started by a wrapper that waits for it, so the
    # caller's cancellation reaches the task and this helper drops it.
    async def _pull(self):
        try:
            return await self.remote.pull()
        except:  # expect: CAN401
            return None

    @awaited
    async def refresh(self):
        await self._pull()
        await self.remote.ack()


async def on_refresh(remote):
    await Mirror(remote).refresh()
