import asyncio


class UpdatePumpMethods:
    async def _pump_updates(self):
        try:
            while True:
                update = await self.conn.receive()
                self.dispatch(update)
        except asyncio.CancelledError:
            pass
        print("updates stopped")
