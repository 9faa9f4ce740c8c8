import asyncio


async def keepalive_pinger(send, interval):
    while True:
        try:
            await asyncio.sleep(interval)
            await send(b"ping")
        except asyncio.CancelledError:
            break
        except OSError:
            continue
    print("keepalive stopped")


async def inbox_pump(conn, handle):
    while True:
        try:
            handle(await conn.receive())
        except asyncio.CancelledError:  # expect: CAN401
            break
    print("inbox closed")


async def status_poller(conn, interval):
    while True:
        try:
            await asyncio.sleep(interval)
            await conn.send(b"status")
        except asyncio.CancelledError:  # expect: CAN401
            return


async def poll_once(conn):
    await asyncio.wait_for(status_poller(conn, 0.1), 1)
