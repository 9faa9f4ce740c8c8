"""A method of the tree named like a library's maker.

The catalog knows `*.accept` as a socket's accept. `self.handshake.accept()`
on an attribute the class sets from a class of the tree (in any branch of
a method) is that class's method, which returns plain data here: the
catalog's guess does not apply. Nor does it to a library's `accept(request)`
with arguments (a websocket protocol answering a handshake): a listener's
or a socket's `accept()` takes none. A socket's accept still makes a socket.
"""

import socket


class Handshake:
    def __init__(self, headers):
        self.headers = headers
        self.accepted = False

    def accept(self, subprotocol):
        self.accepted = True
        return 101, [(b"upgrade", b"websocket")], {"subprotocol": subprotocol}


class WebsocketStream:
    def __init__(self, send, log):
        self.send = send
        self.log = log
        self.closed = False
        self.handshake = None
        self.state = None

    async def handle(self, event):
        if self.closed:
            return
        elif event.kind == "request":
            self.handshake = Handshake(event.headers)

    # Fine: the handshake's accept returns a status and headers.
    async def accept(self, message):
        status_code, headers, self.state = self.handshake.accept(message.get("subprotocol"))
        await self.send(status_code, headers)
        await self.log(status_code)


class HandshakeProtocol:
    def __init__(self, protocol_factory, transport):
        self.protocol = protocol_factory()
        self.transport = transport

    # Fine: the library's accept(request) answers with a response to send.
    async def handshake(self, request, send):
        response = self.protocol.accept(request)
        await send(response.serialize())
        self.transport.write(response.body)


class Listener:
    def __init__(self, addr):
        self.sock = socket.create_server(addr)

    # Buggy: the accepted socket waits for the greeting with no owner.
    async def serve_one(self, greet, registry):
        conn, _ = self.sock.accept()
        await greet(conn)  # expect: CAN102
        registry.add(conn)
