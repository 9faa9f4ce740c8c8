"""A value named only inside an f-string is not handed to the call.

``raise SetupError(f"volume {volume} is unusable")`` formats the volume's
text into a message; nothing in that handler can release the volume. So the
handler is no cleanup of it: neither evidence that the value is a resource,
nor a release that cancellation would skip. A handler that does hand the
value on (``await api.delete_volume(volume)``) is such a cleanup.
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
