"""A result the function compares with a bool or a number is a flag or a count.

`ok = await port.open()` followed by `if ok is False:` says what `open`
returned: a success flag, not the port (which the caller already holds).
`n = await store.connect_rows(batch)` followed by `if n > 0:` is a count.
Neither holds anything a cancellation could leak, whatever the verb of the
call that made it. The twins bind what the same verbs return when the
function then uses it as an object: a connection it works through and
closes on the normal path only.
"""

from typing import Any


class Bridge:
    def __init__(self, ports: list, store: Any, log: Any) -> None:
        self.ports = ports
        self.store = store
        self.log = log
        self.live: list = []

    # Fine: `ok` is the flag `open` returns, compared with False.
    async def bring_up(self) -> None:
        for port in self.ports:
            ok = await port.open()
            if ok is False:
                self.log.warning("port %s refused", port)
                continue
            self.live.append(port)
            await self.log.flush()

    # Fine: `linked` is a count, compared with a number.
    async def link_batch(self, batch: list) -> int:
        linked = await self.store.connect_rows(batch)
        await self.log.flush()
        if linked > 0:
            self.log.info("linked %d rows", linked)
        return linked

    # Buggy twin: `link` from the same verb is used as an object (a
    # connection it reads through and closes), and a cancellation at the
    # read leaves it open.
    async def read_link(self, peer: Any) -> bytes:
        link = await peer.open_link()
        data = await link.read()  # expect: CAN102
        link.close()
        return data

    # Buggy twin: a count of another name does not excuse the object.
    async def read_counted(self, peer: Any) -> int:
        channel = await peer.connect_channel()
        total = await channel.read_all()  # expect: CAN102
        channel.close()
        if total > 0:
            self.log.info("read %d", total)
        return total
