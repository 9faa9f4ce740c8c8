"""Tasks stored into a value an owner outside the function already has.

`state = await self._state_for(channel)` of a helper that returns the entry
it keeps in `self._states` (reading it, or making and storing it first) lends
the entry: a task put on it (`state.watch_task = create_task(...)`) is the
entry's, which self's registry keeps, whatever happens here. So is a task put
on a local that was handed to a parameter's object before (`room.pending =
approval` ... `approval.timer = create_task(...)`). The same local kept by
nobody leaves the task to this function.
"""

import asyncio


class ChannelState:
    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.watch_task: asyncio.Task | None = None
        self.pending = None


class PendingApproval:
    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self.timer: asyncio.Task | None = None


class ChannelHub:
    def __init__(self, sink) -> None:
        self.sink = sink
        self._states: dict[str, ChannelState] = {}

    async def _state_for(self, channel: str) -> ChannelState:
        state = self._states.get(channel)
        if state is None:
            state = ChannelState(channel)
            self._states[channel] = state
        return state

    def _fresh_state(self, channel: str) -> ChannelState:
        return ChannelState(channel)

    def _reset(self, state: ChannelState) -> None:
        if state.watch_task is not None:
            state.watch_task.cancel()
            state.watch_task = None

    # Fine: the entry self._states keeps holds the task.
    async def on_message(self, channel: str, text: str) -> None:
        state = await self._state_for(channel)
        try:
            state.watch_task = asyncio.create_task(self.sink.watch(channel))
            await self.sink.post(channel, text)
        except Exception:
            self._reset(state)
            raise

    # Buggy: a state nobody keeps; a cancellation at post leaves the task.
    async def on_direct(self, channel: str, text: str) -> None:
        state = self._fresh_state(channel)
        try:
            state.watch_task = asyncio.create_task(self.sink.watch(channel))
            await self.sink.post(channel, text)  # expect: CAN101
        except Exception:
            self._reset(state)
            raise

    # Fine: the approval is the room's before its timer is made.
    async def ask(self, room: ChannelState, request_id: str) -> None:
        approval = PendingApproval(request_id)
        room.pending = approval
        if self.sink.auto_approve:
            await self.sink.reply(request_id, "once")
            return
        approval.timer = asyncio.create_task(self.sink.expire(request_id))
        try:
            await self.sink.post(room.channel, request_id)
        except Exception:
            approval.timer.cancel()
            raise

    # Buggy: the approval reaches the room only after the await.
    async def ask_late(self, room: ChannelState, request_id: str) -> None:
        approval = PendingApproval(request_id)
        approval.timer = asyncio.create_task(self.sink.expire(request_id))
        try:
            await self.sink.post(room.channel, request_id)  # expect: CAN101
        except Exception:
            approval.timer.cancel()
            raise
        room.pending = approval
