"""A wrapper around the ASGI server's callables owns no connection.

`ws = WebSocket(scope, receive, send)` in an ASGI app wraps the one
connection the server gave this call: the server owns it, cancels the
app call (on a disconnect, at shutdown), and closes the socket itself
when the call ends by any exception. Closing the wrapper in an `except
Exception` is a courtesy message, not a release the cancellation skips.
A connection the app opens itself (to an upstream) is its own. So is a
task that waits only on `receive` (a disconnect watcher): it ends with
the call's channel; one that does other work with what the app holds is
left running by a cancellation.
"""

import asyncio
from typing import Awaitable, Callable

from starlette.websockets import WebSocket

Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


# Fine: the wrapper is the server's connection; the close in the handler
# only tells the client why.
async def echo_app(scope: dict, receive: Receive, send: Send) -> None:
    ws = WebSocket(scope, receive=receive, send=send)
    try:
        await ws.accept()
        while True:
            text = await ws.receive_text()
            await ws.send_text(text)
    except Exception:
        await ws.close(code=1011)
        raise


# Buggy twin: the upstream connection the app opened itself is closed only
# on an error; a cancellation of the app call leaks it.
async def proxy_app(scope: dict, receive: Receive, send: Send) -> None:
    ws = WebSocket(scope, receive, send)
    upstream = await asyncio.open_connection("backend", 8080)
    try:
        await ws.accept()  # expect: CAN101
        text = await ws.receive_text()
        upstream[1].write(text.encode())
    except Exception:
        upstream[1].close()
        raise
    upstream[1].close()


# Fine: the watcher only waits on the server's `receive` for this call; the
# server ends that channel with the call, so a watcher left running by a
# cancellation ends by itself.
async def stream_app(scope: dict, receive: Receive, send: Send) -> None:
    disconnected = False

    async def watch_disconnect() -> None:
        nonlocal disconnected
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected = True
                break

    watcher = asyncio.create_task(watch_disconnect())
    await send({"type": "http.response.start", "status": 200, "headers": []})
    while not disconnected:
        await send({"type": "http.response.body", "body": b"tick", "more_body": True})
        await asyncio.sleep(1)
    watcher.cancel()


# Buggy twin: the task also writes to an upstream it holds, and goes on
# doing so for nobody when the app call is cancelled.
async def relay_app(scope: dict, receive: Receive, send: Send) -> None:
    async def pump(writer: asyncio.StreamWriter) -> None:
        while True:
            message = await receive()
            writer.write(message.get("body", b""))
            await writer.drain()

    reader, writer = await asyncio.open_connection("backend", 8080)
    pumper = asyncio.create_task(pump(writer))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": []})  # expect: CAN102
        await asyncio.sleep(30)
    finally:
        writer.close()
    pumper.cancel()
