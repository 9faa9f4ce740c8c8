"""CAN201's remote creates by name (`create*`) leave out makers whose result
lives in this process: a future a peer's reply completes, a local socket."""

import asyncio
from typing import Any


class PeerTransfers:
    def __init__(self, network: Any, udp: Any, api: Any) -> None:
        self._network = network
        self._udp = udp
        self._api = api

    # Fine: the awaited "create" is a local future for the peer's reply;
    # the timeout cancels it, and nothing was made on the peer.
    async def place_in_queue(self, peer: str) -> Any:
        try:
            reply = await asyncio.wait_for(self._network.create_peer_response_future(peer, "PlaceInQueue"), 15)
        except asyncio.TimeoutError:
            return None
        return reply

    # Fine: a local datagram socket, opened under a deadline.
    async def probe(self, host: str) -> Any:
        sock = await asyncio.wait_for(self._udp.create_socket(remote_addr=(host, 4001)), timeout=5)
        try:
            return await asyncio.wait_for(sock.recvfrom(), timeout=10)
        finally:
            sock.close()

    # Buggy: a share link the server makes; the timeout throws its id away.
    async def share(self, path: str) -> Any:
        return await asyncio.wait_for(self._api.create_share_link(path), 10)  # expect: CAN201
