import asyncio

import websockets


async def _pump(ws, queue):
    while True:
        await ws.send(await queue.get())


# Fine: websockets' server runs each connection's handler in a task it
# never cancels (closing the server closes the connections and waits for
# the handlers), so the monitor task is not left behind by a cancellation.
async def handle_client(ws):
    queue = asyncio.Queue()
    monitor = asyncio.create_task(_pump(ws, queue))
    async for message in ws:
        await queue.put(message)
    monitor.cancel()


async def main(host, port):
    async with websockets.serve(handle_client, host, port):
        await asyncio.Future()


# Buggy: the same handler called by code of the tree, under a timeout.
async def replay(ws):
    await asyncio.wait_for(handle_replay(ws), timeout=30)


async def handle_replay(ws):
    queue = asyncio.Queue()
    monitor = asyncio.create_task(_pump(ws, queue))
    async for message in ws:  # expect: CAN102
        await queue.put(message)
    monitor.cancel()
