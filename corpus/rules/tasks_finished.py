"""Tasks and processes that have finished on the path where the code goes on.

An await that passes cancellation into a task (``await t``,
``asyncio.wait_for(t, ...)``, ``asyncio.gather(t)``) raises only once the
task is done: ``wait_for`` cancels the task on timeout and waits for it. A
test of ``t.done()`` or ``proc.returncode`` tells on which branch there is
nothing left to release. The twins below keep a real window.
"""

import asyncio


async def work() -> int:
    await asyncio.sleep(1)
    return 1


class Tools:
    def __init__(self) -> None:
        self._results: list[int] = []

    # Fine: on timeout wait_for cancelled the task and waited for it, so the
    # handler's await has no live task.
    async def run_with_deadline(self, seconds: float) -> int:
        task = asyncio.ensure_future(work())
        try:
            return await asyncio.wait_for(task, timeout=seconds)
        except asyncio.TimeoutError:
            await self.report_timeout()
            return -1

    # Buggy twin: the task is awaited through asyncio.wait, which does not
    # cancel it; a timeout cancels what is still pending, a cancellation at
    # the wait leaves it running.
    async def run_with_wait(self, seconds: float) -> int:
        task = asyncio.ensure_future(work())
        try:
            done, pending = await asyncio.wait({task}, timeout=seconds)  # expect: CAN102
            for t in pending:
                t.cancel()
            return len(done)
        except asyncio.TimeoutError:
            await self.report_timeout()
            return -1

    # Fine: the task is cancelled unless it is done already.
    async def stop_watcher(self) -> None:
        watcher = asyncio.create_task(work())
        try:
            await self.step()
        finally:
            if not watcher.done():
                watcher.cancel()
            await self.report_timeout()

    # Buggy twin: the test is on another task, so the finally's await comes
    # with `watcher` still running; it is cancelled only after that await.
    async def stop_watcher_late(self, other: "asyncio.Task[int]") -> None:
        watcher = asyncio.create_task(work())
        try:
            await self.step()
        finally:
            if other.done():
                await self.report_timeout()  # expect: CAN102
            watcher.cancel()

    # Fine: the child is killed unless it has exited.
    async def run_child(self, argv: list[str]) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        try:
            await proc.wait()
        finally:
            if proc.returncode is None:
                proc.kill()
            await self.report_timeout()

    async def report_timeout(self) -> None:
        await asyncio.sleep(0)

    async def step(self) -> None:
        await asyncio.sleep(0)


class OneShot:
    async def report(self, value: object) -> None:
        await asyncio.sleep(0)

    # Fine: asyncio.wait of one task and no timeout returns only once that
    # task is done, so nothing is left running at the report.
    # (a cancellation during the wait is passed on to the task by hand)
    async def run_once(self) -> None:
        task = asyncio.create_task(work())
        try:
            done, _ = await asyncio.wait({task}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        await self.report(done.pop().result())

    # Fine: with several tasks and no return_when nor timeout, the wait
    # returns once every one is done; nothing is left running at the report.
    async def run_all(self) -> None:
        task = asyncio.create_task(work())
        other = asyncio.create_task(work())
        try:
            await asyncio.wait((task, other, asyncio.sleep(0.25)))
        except asyncio.CancelledError:
            task.cancel()
            other.cancel()
            raise
        await self.report(task.result())
        await self.report(other.result())

    # Buggy twin: with two tasks, FIRST_COMPLETED leaves one running.
    async def run_first(self) -> None:
        task = asyncio.create_task(work())
        other = asyncio.create_task(work())
        done, pending = await asyncio.wait({task, other}, return_when=asyncio.FIRST_COMPLETED)  # expect: CAN102
        await self.report(done.pop().result())
        for p in pending:
            p.cancel()


class Handle:
    """A handle whose wait() awaits the task it holds: cancelling the wait
    cancels that task, whose own cleanup closes the stream."""

    def __init__(self, stream: "asyncio.Queue[int]") -> None:
        self._stream = stream
        self._task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        try:
            while True:
                await self._stream.get()
        finally:
            self._stream.put_nowait(-1)

    async def wait(self) -> None:
        await self._task

    async def poll(self) -> int:
        return await self._stream.get()

    def kill(self) -> None:
        self._task.cancel()


class Runner:
    # Fine: a cancelled wait is delivered into the handle's own task.
    async def run(self, stream: "asyncio.Queue[int]") -> None:
        handle = Handle(stream)
        try:
            await handle.wait()
        except Exception:
            handle.kill()
            raise

    # Buggy twin: poll() waits on the queue, not on the handle's task.
    async def run_polled(self, stream: "asyncio.Queue[int]") -> int:
        handle = Handle(stream)
        try:
            return await handle.poll()  # expect: CAN101
        except Exception:
            handle.kill()
            raise


class Commands:
    def __init__(self, rpc: Any) -> None:
        self._rpc = rpc

    async def _start(self, cmd: str) -> Handle:
        return Handle(await self._rpc.open(cmd))

    async def _start_untyped(self, cmd: str):
        return Handle(await self._rpc.open(cmd))

    # Fine: _start says it returns a Handle, whose wait() passes the
    # cancellation into the handle's own task.
    async def run(self, cmd: str) -> None:
        handle = await self._start(cmd)
        try:
            await handle.wait()
        except Exception:
            handle.kill()
            raise

    # Buggy twin: nothing says what _start_untyped returns, so its wait is
    # an ordinary await on an unknown object.
    async def run_untyped(self, cmd: str) -> None:
        handle = await self._start_untyped(cmd)
        try:
            await handle.wait()  # expect: CAN101
        except Exception:
            handle.kill()
            raise
