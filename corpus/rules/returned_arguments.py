"""A function that returns its argument hands back the same object.

`state = strip_images(state)`, where `strip_images` edits the state it is
given and returns it, rebinds the name to the object it already held: no
new value comes into being, so no window opens for it there. A helper that
returns a new object on some path makes a new value, judged as any other.
"""

from typing import Any


class State:
    def __init__(self, messages: list) -> None:
        self.messages = messages


def strip_images(state: State) -> State:
    state.messages = [m for m in state.messages if not m.get("image")]
    return state


def maybe_strip(state: State, keep: bool) -> State:
    if keep:
        return state
    return State([m for m in state.messages if not m.get("image")])


# Fine: strip_images hands back the state it was given: no new value at
# the semaphore's exit, only the record made above (which owns nothing).
async def finish_sample(sem: Any, sample: Any, log_images: bool, cleanup: Any) -> State:
    state = State(sample.messages)
    async with sem:
        try:
            await cleanup.prepare(state)
        except Exception:
            await cleanup(state)
            raise
        if not log_images:
            state = strip_images(state)
    return state


# Buggy twin: on one path the helper returns a new state, a new value the
# handler would clean up but the semaphore's exit comes first.
async def finish_rebuilt(sem: Any, sample: Any, log_images: bool, cleanup: Any) -> State:
    state = State(sample.messages)
    async with sem:  # expect: CAN102
        try:
            await cleanup.prepare(state)
        except Exception:
            await cleanup(state)
            raise
        state = maybe_strip(state, log_images)
    return state


def rebuilt(state: State) -> State:
    state = State(list(state.messages))
    return state


# Buggy twin: `rebuilt` binds its parameter to a new state before it
# returns it: a new value, as in finish_rebuilt.
async def finish_rebound(sem: Any, sample: Any, cleanup: Any) -> State:
    state = State(sample.messages)
    async with sem:  # expect: CAN102
        try:
            await cleanup.prepare(state)
        except Exception:
            await cleanup(state)
            raise
        state = rebuilt(state)
    return state
