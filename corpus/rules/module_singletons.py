"""A getter that hands back a module-level object lends it.

`def get_sink(): return _sink` reads an object the module keeps (set up
once, at start, by someone else): the caller borrows it, whatever the
caller's cleanup later does with it (`sink.stop_flush()` in a finally
stops a flush loop the caller started, it does not make the sink the
caller's to release). A factory that makes a new object each call hands
that object over.
"""

from typing import Any, Optional


class Sink:
    def __init__(self) -> None:
        self.events: list = []

    def start_flush(self) -> None:
        self.flushing = True

    def stop(self) -> None:
        self.flushing = False


_sink: Optional[Sink] = None


def get_sink() -> Optional[Sink]:
    return _sink


def make_sink() -> Sink:
    return Sink()


async def run_shell(ui: Any) -> None:
    sink = get_sink()
    if sink is not None:
        sink.start_flush()
    await ui.replay()
    try:
        await ui.loop()
    finally:
        if sink is not None:
            sink.stop()


async def run_shell_own_sink(ui: Any) -> None:
    sink = make_sink()
    sink.start_flush()
    await ui.replay()  # expect: CAN102
    try:
        await ui.loop()
    finally:
        sink.stop()
