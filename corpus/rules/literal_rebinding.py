"""A name bound to a new value that is no resource (a lambda, a string, a
number) no longer reaches what it held, as after `x = None`: what was
taken out of a registry under that name and closed on one branch is not
still pending at a later await under the name's new value. Taken out and
kept under its name, it is.
"""

import asyncio
from typing import Any, Dict


class DatagramRelay:
    def __init__(self) -> None:
        self.peers: Dict[Any, Any] = {}

    # Fine: the evicted peer is closed if it has a transport; `prot` then
    # names the factory for the new endpoint.
    async def open_peer(self, addr: Any, data: bytes) -> None:
        if len(self.peers) > 64:
            oldest = min(self.peers, key=lambda k: self.peers[k].update)
            prot = self.peers.pop(oldest)
            if prot.transport:
                prot.transport.close()
        prot = lambda: asyncio.DatagramProtocol()  # noqa: E731
        await asyncio.get_running_loop().create_datagram_endpoint(prot, remote_addr=addr)

    # Buggy twin: the evicted peer is closed only after the await.
    async def open_peer_late(self, addr: Any, data: bytes) -> None:
        factory = lambda: asyncio.DatagramProtocol()  # noqa: E731
        if len(self.peers) > 64:
            oldest = min(self.peers, key=lambda k: self.peers[k].update)
            prot = self.peers.pop(oldest)
            await asyncio.get_running_loop().create_datagram_endpoint(factory, remote_addr=addr)  # expect: CAN301
            if prot.transport:
                prot.transport.close()
