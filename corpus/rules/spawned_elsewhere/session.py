import asyncio

from .loops import inbox_pump, keepalive_pinger, status_poller


class Session:
    def __init__(self, conn):
        self.conn = conn
        self._pinger = None
        self._poller = None

    def start(self):
        self._pinger = asyncio.create_task(keepalive_pinger(self.conn.send, 10))
        self._poller = asyncio.create_task(status_poller(self.conn, 30))

    async def serve(self, handle):
        await inbox_pump(self.conn, handle)

    def stop(self):
        for task in (self._pinger, self._poller):
            if task is not None:
                task.cancel()
