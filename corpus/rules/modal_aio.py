"""Modal-style SDK calls: `.aio` is the async flavour of the method before
it, so `modal.Sandbox.create.aio(...)` is a remote create and an acquisition."""
import asyncio

import modal


class ModalBackend:
    def __init__(self, app, image) -> None:
        self._app = app
        self._image = image
        self._sandboxes: dict = {}

    # Buggy: the create is cancelled by its own timeout; the sandbox the
    # server still makes is lost.
    async def create(self, name: str, timeout: float):
        sb = await asyncio.wait_for(  # expect: CAN201
            modal.Sandbox.create.aio(app=self._app, image=self._image), timeout
        )
        self._sandboxes[name] = sb
        return sb

    # Buggy: the sandbox exists but is unregistered across the exec.
    async def start(self, name: str):
        sb = await modal.Sandbox.create.aio(app=self._app, image=self._image)
        await sb.exec.aio("true")  # expect: CAN102
        self._sandboxes[name] = sb

    # Fine: terminated on any exception, cancellation included.
    async def start_guarded(self, name: str):
        sb = await modal.Sandbox.create.aio(app=self._app, image=self._image)
        try:
            await sb.exec.aio("true")
        except BaseException:
            await asyncio.shield(sb.terminate.aio())
            raise
        self._sandboxes[name] = sb
