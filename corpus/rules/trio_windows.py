"""trio: the same ownership windows, with trio's cancellation.

``trio.Cancelled`` derives from BaseException, so ``except Exception`` never
sees it. Cancel scopes (``move_on_after``, ``fail_after``) limit time; they do
not release anything.
"""

from typing import Any

import trio


class TrioLinks:
    def __init__(self) -> None:
        self._streams: list[Any] = []
        self._procs: list[Any] = []
        self._ready = trio.Event()

    async def _serve(self, stream: Any) -> None:
        await stream.send_all(b"\n")

    # Buggy: move_on_after is a cancel scope, not a cleanup; the stream is
    # unowned when the scope (or an outer one) cancels the send.
    async def attach(self, host: str, port: int) -> None:
        stream = await trio.open_tcp_stream(host, port)
        with trio.move_on_after(5):
            await stream.send_all(b"HELLO\n")  # expect: CAN102
        self._streams.append(stream)

    # Buggy: cleanup under `except Exception` in trio code.
    async def attach_checked(self, host: str, port: int) -> None:
        stream = await trio.open_tcp_stream(host, port)
        try:
            await stream.send_all(b"HELLO\n")  # expect: CAN101
        except Exception:
            await stream.aclose()
            raise
        self._streams.append(stream)

    # Fine: `except trio.Cancelled` releases and re-raises; the Exception
    # handler covers ordinary errors.
    async def attach_cancel_aware(self, host: str, port: int) -> None:
        stream = await trio.open_tcp_stream(host, port)
        try:
            await stream.send_all(b"HELLO\n")
        except trio.Cancelled:
            await trio.aclose_forcefully(stream)
            raise
        except Exception:
            await stream.aclose()
            raise
        self._streams.append(stream)

    # Fine: the process is stored before the first checkpoint, and the
    # nursery owns the serving task from birth.
    async def spawn_and_serve(self, argv: list[str], stream: Any) -> None:
        proc = await trio.lowlevel.open_process(argv)
        self._procs.append(proc)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._serve, stream)
            await self._ready.wait()

    # Fine: trio delivers a cancellation again at every checkpoint inside
    # the cancelled scope; returning False only delays it to the caller's
    # next checkpoint.
    async def wait_ready(self) -> bool:
        try:
            await self._ready.wait()
        except trio.Cancelled:
            return False
        return True

    # Buggy: caught in a loop that goes round again: the next wait raises
    # Cancelled at once, it is caught again, and the loop spins forever.
    async def wait_ready_forever(self) -> None:
        while not self._ready.is_set():
            try:
                await self._ready.wait()
            except trio.Cancelled:  # expect: CAN401
                continue
