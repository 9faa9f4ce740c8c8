"""Reconnect loops whose task a subclass in another module starts.

`class CloudUplink(links.Uplink)` starts `self.connect()` as a task in a
module with no coroutine of its own: the method is the base's (looked up
through the subclass's bases, though other classes of the tree also have
a `connect`), and its loop is that task's outermost frame.
"""

import asyncio


class Uplink:
    def __init__(self) -> None:
        self.state = "idle"

    # Fine: the task uplink_starter.py starts; a cancellation while it
    # waits to retry is its stop.
    async def connect(self) -> None:
        while True:
            try:
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                break
        self.state = "idle"


class Downlink:
    def __init__(self) -> None:
        self.state = "idle"

    # Buggy twin: nothing starts it as a task; a caller awaiting it has
    # its cancellation swallowed.
    async def connect(self, attempts: int = 5) -> bool:
        for attempt in range(attempts):
            try:
                await asyncio.sleep(2**attempt)
                return True
            except asyncio.CancelledError:  # expect: CAN401
                self.state = "stopped"
                return False
        return False
