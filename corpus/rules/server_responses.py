"""A server's WebSocket response, and a client's WebSocket.

An aiohttp handler's `WebSocketResponse` lives on the request's connection,
which the web server's request handler owns: it closes the transport when
the handler ends or is cancelled. A client WebSocket the function opens is
its own to close.
"""

from aiohttp import ClientSession, web


# Fine: the response is the server's connection, whatever the handler does.
async def websocket_handler(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(protocols=["json-rpc"])
    await ws.prepare(request)
    async for msg in ws:
        try:
            handle(msg.json())
        except ValueError:
            await ws.close()
    return ws


def handle(frame: dict) -> None:
    print(frame)


# Buggy: the client socket waits for the greeting with nothing to close it.
async def greet(session: ClientSession, url: str) -> str:
    ws = await session.ws_connect(url)
    greeting = await ws.receive_str()  # expect: CAN102
    await ws.close()
    return greeting
