"""A task started in the enclosing function's nursery, from a closure.

`async with (trio.open_nursery() as n,):` (the magic trailing comma
of a formatter, Python 3.10's bracketed items) opens a nursery; a function
nested in that body that calls `n.start(...)` starts the task in it,
and the nursery cancels and joins it when its body is left, whatever the
closure's caller does. A closure handed some other object (a parameter of
its own of that name) starts nothing the nursery keeps.
"""

from typing import Any

import trio


async def supervise(worker: Any, stream: Any) -> None:
    async with (
        trio.open_nursery() as n,
    ):
        tracker = await n.start(worker)

        # Fine: the restarted tracker is the enclosing nursery's.
        async def restart(old: Any) -> Any:
            old.cancel_scope.cancel()
            fresh = await n.start(worker)
            await stream.send(b"restarted")
            return fresh

        async for msg in stream:
            if msg == b"restart":
                tracker = await restart(tracker)


async def supervise_with(worker: Any, stream: Any, runner: Any) -> None:
    async with (
        trio.open_nursery() as n,
    ):
        await n.start(worker)

        # Buggy twin: this closure's own `n` is the runner it is
        # handed, which keeps nothing; the session is unowned at the send.
        async def restart(n: Any) -> Any:
            fresh = await n.start(worker)
            await stream.send(b"restarted")  # expect: CAN102
            return fresh

        await restart(runner)
