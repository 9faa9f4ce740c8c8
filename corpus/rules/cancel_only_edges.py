"""Awaits that raise nothing but cancellation, and coroutines made for tasks.

`await asyncio.wait(...)` and `await asyncio.sleep(...)` raise only the
cancellation they deliver: of a try's handlers, only the first that catches
cancellation is reached from them, never a later `except Exception`. And
`create_task(self._pump(ws))` runs nothing when it makes the coroutine:
what the coroutine raises is the task's.
"""

import asyncio


class Feed:
    async def _pump(self, ws) -> None:
        async for msg in ws:
            self.queue.put_nowait(msg)

    # Fine: the wait's cancellation reaches the first handler, which cancels
    # both tasks; the retry handler is reached only from the connect and
    # the results, when no task is running.
    async def listen(self) -> None:
        while True:
            ws = await self.connect()
            try:
                a = asyncio.create_task(self._pump(ws))
                b = asyncio.create_task(self._pump(ws))
                done, pending = await asyncio.wait([a, b], return_when=asyncio.FIRST_EXCEPTION)
                for t in pending:
                    t.cancel()
                for t in done:
                    t.result()
            except asyncio.CancelledError:
                a.cancel()
                b.cancel()
                raise
            except Exception:
                await asyncio.sleep(1.0)
            finally:
                await ws.close()

    # Buggy: a status request can fail with the tasks running; the retry
    # handler sleeps, and the loop reconnects, with both tasks still running
    # and nobody holding them.
    async def listen_checked(self) -> None:
        while True:
            ws = await self.connect()  # expect: CAN102
            try:
                a = asyncio.create_task(self._pump(ws))
                b = asyncio.create_task(self._pump(ws))
                await self.check_status(ws)
                done, pending = await asyncio.wait([a, b], return_when=asyncio.FIRST_EXCEPTION)
                for t in pending:
                    t.cancel()
                for t in done:
                    t.result()
            except asyncio.CancelledError:
                a.cancel()
                b.cancel()
                raise
            except Exception:
                await asyncio.sleep(1.0)
            finally:
                await ws.close()
