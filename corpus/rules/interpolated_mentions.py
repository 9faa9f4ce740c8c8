"""A value named only inside an f-string is not handed to the call.

``raise SetupError(f"volume {volume} is unusable")`` formats the volume's
text into a message; nothing in that handler can release the volume. So the
handler is no cleanup of it: neither evidence that the value is a resource,
nor a release that cancellation would skip. A handler that does hand the
value on (``await api.delete_volume(volume)``) is such a cleanup. A call
inside the interpolation (``f"pong {short_hex(token)}"``) is a formatter:
what it is handed is neither cleaned up nor handed over.
"""

from typing import Any


class SetupError(Exception):
    pass


class ApiError(Exception):
    pass


class DiskSetup:
    def __init__(self, api: Any) -> None:
        self._api = api

    async def format_disk(self, disk: str) -> Any:
        # the volume is the wanted, permanent result; the handler only
        # reports it
        volume = await self._api.create_volume(disk)
        try:
            mounted = await self._api.mount(disk)
        except ApiError as err:
            raise SetupError(f"volume {volume} on {disk} is unusable") from err
        return mounted

    async def scratch_disk(self, disk: str) -> Any:
        volume = await self._api.create_volume(disk)
        try:
            mounted = await self._api.mount(disk)  # expect: CAN101
        except ApiError:
            await self._api.delete_volume(volume)
            raise
        return mounted


def short_hex(data: bytes) -> str:
    return data.hex()[:8]


class PongRouter:
    """A call inside an interpolation formats: it releases nothing."""

    def __init__(self) -> None:
        self._aliases: dict = {}
        self._channels: dict = {}
        self._links: dict = {}

    async def on_pong(self, peer: str, token: bytes) -> None:
        # the token taken out of the alias table is plain data: the handler
        # only formats it into a message
        if token in self._aliases:
            token = self._aliases.pop(token)
        try:
            channel = self._channels[peer]
        except KeyError:
            print(f"unexpected pong {short_hex(token)} from {peer}")
            return
        await channel.send(token)

    async def drop_link(self, peer: str) -> None:
        link = self._links.pop(peer)
        await link.send_goodbye()  # expect: CAN301
        await link.close()
