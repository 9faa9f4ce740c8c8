"""Tasks of a wait whose pending ones are then cancelled.

After `done, pending = await asyncio.wait([a, b], return_when=FIRST_COMPLETED)`
and `for t in pending: t.cancel()`, every task the wait was given has ended
or been cancelled: none is left running when the loop goes round again.
The wait itself is still a window: a cancel there leaves both running.
"""

import asyncio


async def restart_on_exit(stop: asyncio.Event, start_server) -> None:
    while not stop.is_set():
        server = await start_server()
        try:
            exited = asyncio.create_task(server.wait())
            stopped = asyncio.create_task(stop.wait())
            done, pending = await asyncio.wait(  # expect: CAN102
                [exited, stopped], return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
            if stopped in done:
                break
        finally:
            server.kill()
