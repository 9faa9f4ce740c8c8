"""A value picked out of a container is the container's element.

`peer = random.choice(peers)` reads one element of `peers` as `peers[i]`
does: it belongs to whoever owns the container (a connection registry,
the caller), not to this function, so closing it on a failure is a
decision about someone else's value and no sign that this function owns
it. What the function makes from the element is its own.
"""

import asyncio
import random
from typing import Any


class Node:
    def __init__(self) -> None:
        self._peers: list = []

    def peers_at(self, height: int) -> list:
        return [p for p in self._peers if p.height >= height]

    # Fine: the peer belongs to the node's connection list; a bad answer
    # gets it banned, a cancellation leaves it where it was.
    async def ask_random_peer(self, height: int) -> Any:
        peer = random.choice(self.peers_at(height))
        try:
            answer = await peer.call("proof", height)
        except Exception:
            await peer.close(ban=True)
            raise
        return answer

    # Leaks: the stream opened to the picked peer is this function's, and
    # only `except Exception` closes it.
    async def stream_from_random_peer(self, height: int) -> Any:
        peer = random.choice(self.peers_at(height))
        reader, writer = await asyncio.open_connection(peer.host, peer.port)
        try:
            data = await reader.read(1024)  # expect: CAN101
        except Exception:
            writer.close()
            raise
        writer.close()
        return data
