"""A socket handed to a call that takes it over (catalog consumes:
`loop.create_connection(sock=...)`, the websockets clients' `sock=`) is
the call's from then on, also when the keyword comes through a dict
splatted into the call (`opts["sock"] = sock` ... `connect(url,
**opts)`). A call that does not take the socket over leaves it the
function's.
"""

import socket
from typing import Any, Dict

import websockets


class TunnelDialer:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port

    # Fine: the websockets client takes the socket over.
    async def dial(self, url: str, direct: bool) -> Any:
        opts: Dict[str, Any] = {}
        if direct:
            sock = socket.create_connection((self.host, self.port))
            sock.setblocking(False)
            opts["sock"] = sock
        return await websockets.connect(url, open_timeout=10, **opts)

    # Buggy twin: this helper is handed the socket but does not take it over.
    async def dial_via(self, url: str, helper: Any) -> Any:
        opts: Dict[str, Any] = {}
        sock = socket.create_connection((self.host, self.port))
        opts["sock"] = sock
        try:
            return await helper.open(url, **opts)  # expect: CAN101
        except OSError:
            sock.close()
            raise
