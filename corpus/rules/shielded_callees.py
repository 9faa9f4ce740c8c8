"""A helper whose every await runs in a shield scope cannot be cancelled.

`with trio.CancelScope(shield=True): await lock.acquire()`: trio delivers
no cancellation inside a shielded scope, so a caller's await of a helper
whose awaits are all shielded so is no point where the caller can be
cancelled, and what the caller holds across it is not exposed there. A
helper with one unshielded await is such a point.
"""

from typing import Any

import trio


async def wait_for_debugger(state: Any) -> None:
    if not state.debug_mode:
        return
    with trio.CancelScope(shield=True):
        await state.lock.acquire()
        state.lock.release()


async def wait_for_debugger_then_log(state: Any) -> None:
    with trio.CancelScope(shield=True):
        await state.lock.acquire()
        state.lock.release()
    await state.log.flush()


class Portal:
    def __init__(self, state: Any) -> None:
        self._state = state
        self._contexts: dict = {}

    # Fine: the only await between the open and the registration is the
    # shielded helper.
    async def open_context(self, name: str) -> Any:
        ctx = await trio.open_tcp_stream(name, 80)
        await wait_for_debugger(self._state)
        self._contexts[name] = ctx
        return ctx

    # Buggy twin: this helper also awaits outside its shield.
    async def open_context_logged(self, name: str) -> Any:
        ctx = await trio.open_tcp_stream(name, 80)
        await wait_for_debugger_then_log(self._state)  # expect: CAN102
        self._contexts[name] = ctx
        return ctx
