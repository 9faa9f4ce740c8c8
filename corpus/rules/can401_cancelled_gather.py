"""Gathering (or awaiting through a helper) tasks just cancelled.

`for t in tasks: t.cancel()` (or `t.cancel(); cancelled.append(t)`), then
`try: await asyncio.gather(*tasks)` / `except CancelledError: pass`: the
CancelledError caught is the children's, as in `t.cancel(); await t`. The
same handler around a gather of tasks nobody cancelled swallows the
caller's cancellation.
"""

import asyncio
import contextlib


# Fine: every task gathered was cancelled first.
async def stop_all(tasks: list) -> None:
    for t in tasks:
        t.cancel()
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        pass


# Fine: the same through a list of the cancelled ones.
async def stop_pending(tasks: list) -> None:
    cancelled = []
    for t in tasks:
        if not t.done():
            t.cancel()
            cancelled.append(t)
    try:
        await asyncio.gather(*cancelled)
    except asyncio.CancelledError:
        pass


# Fine: a comprehension cancels each element as the loop would, and the
# gather takes the not-yet-finished ones among them.
class Fleet:
    def __init__(self) -> None:
        self._workers: list = []

    async def shutdown(self) -> None:
        _ = [w.cancel() for w in self._workers if not w.done()]
        try:
            if live := [w for w in self._workers if not w.done()]:
                await asyncio.gather(*live)
        except asyncio.CancelledError:
            pass

    async def drain(self) -> None:
        [w.cancel() for w in self._workers]
        try:
            await asyncio.gather(*(w for w in self._workers))
        except asyncio.CancelledError:
            pass

    # Buggy: the comprehension only asks which are done; nothing was
    # cancelled, so the CancelledError can be the caller's.
    async def settle(self) -> None:
        _ = [w.done() for w in self._workers]
        try:
            await asyncio.gather(*(w for w in self._workers if not w.done()))
        except asyncio.CancelledError:  # expect: CAN401
            pass


# Buggy: nothing was cancelled; the caller's cancellation is dropped.
async def wait_all(tasks: list) -> None:
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:  # expect: CAN401
        pass


class Watcher:
    @staticmethod
    async def _suppress_cancelled(task: asyncio.Task) -> None:
        try:
            await task
        except asyncio.CancelledError:
            pass

    async def _wait_quietly(self, task: asyncio.Task) -> None:
        try:
            await task
        except asyncio.CancelledError:  # expect: CAN401
            pass

    # Fine: every call of _suppress_cancelled hands it a task just
    # cancelled, so what it catches is that task's cancellation.
    async def stop(self, watcher: asyncio.Task) -> None:
        watcher.cancel()
        await self._suppress_cancelled(watcher)

    # Buggy (above): _wait_quietly is also called with a running task, so
    # the caller's cancellation can be the one it drops.
    async def join(self, worker: asyncio.Task) -> None:
        await self._wait_quietly(worker)

    async def stop_worker(self, worker: asyncio.Task) -> None:
        worker.cancel()
        await self._wait_quietly(worker)


class Pool:
    """A registry whose cancel method hands back the tasks it cancelled."""

    def __init__(self) -> None:
        self._tasks: dict = {}

    def cancel_everything(self) -> list:
        out = []
        for t in self._tasks.values():
            t.cancel()
            out.append(t)
        self._tasks.clear()
        return out

    def snapshot(self) -> list:
        return list(self._tasks.values())

    # Fine: what a call named for cancelling hands back is what it
    # cancelled; the suppress takes those tasks' own cancellation.
    async def close(self) -> None:
        tasks = self.cancel_everything()
        if tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*tasks)

    # Buggy: the same wait over tasks nobody cancelled drops the caller's
    # cancellation.
    async def drain(self) -> None:
        tasks = self.snapshot()
        if tasks:
            with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
                await asyncio.gather(*tasks)


class Pipes:
    async def _send(self) -> None:
        await asyncio.sleep(1)

    async def _ping(self) -> None:
        await asyncio.sleep(1)

    async def _recv(self) -> None:
        await asyncio.sleep(1)

    # Fine: whichever of the helpers are still pending after the first one
    # ends are cancelled, each under a test that it is in the pending set,
    # and the set is gathered for their end.
    async def run_once(self) -> None:
        sender = asyncio.create_task(self._send())
        pinger = asyncio.create_task(self._ping())
        try:
            _, pending = await asyncio.wait([sender, pinger], return_when=asyncio.FIRST_COMPLETED)
        finally:
            sender.cancel()
            pinger.cancel()
        if sender in pending:
            sender.cancel()
        if pinger in pending:
            pinger.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*pending)
        await self._recv()

    # Buggy: the test is that the task is not in the set: the set's tasks
    # were not cancelled, and the suppress swallows the caller's cancel.
    async def run_twice(self) -> None:
        sender = asyncio.create_task(self._send())
        pinger = asyncio.create_task(self._ping())
        try:
            done, pending = await asyncio.wait([sender, pinger], return_when=asyncio.FIRST_COMPLETED)
        finally:
            sender.cancel()
            pinger.cancel()
        if sender not in pending:
            sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):  # expect: CAN401
            await asyncio.gather(*pending)
        await self._recv()
