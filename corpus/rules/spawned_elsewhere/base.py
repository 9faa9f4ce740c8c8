import abc
import asyncio


class RelayBase(abc.ABC):
    def __init__(self, conn):
        self.conn = conn
        self._updates = None

    async def connect(self):
        await self.conn.open()
        self._updates = asyncio.create_task(self._pump_updates())

    def disconnect(self):
        if self._updates is not None:
            self._updates.cancel()

    @abc.abstractmethod
    def _pump_updates(self):
        raise NotImplementedError
