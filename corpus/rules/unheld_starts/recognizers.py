"""Speech recognizer clients, each driving a child process."""

import asyncio
import signal
from typing import Optional


class StreamingRecognizer:
    def __init__(self, command: str) -> None:
        self.command = command
        self.text = ""
        # a signal handler's task: the handler's caller drops what it returns
        signal.signal(signal.SIGTERM, lambda *args: asyncio.create_task(self.drain()))

    # Fine: runs only as a task of extension.py that nothing holds.
    async def start(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, stdout=asyncio.subprocess.PIPE)
        line = await proc.stdout.readline()
        self.text = line.decode()
        proc.kill()
        await proc.wait()

    # Fine: a private coroutine only start-like tasks await in place.
    async def _probe(self) -> bytes:
        proc = await asyncio.create_subprocess_exec(self.command, "--version", stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        return out

    async def warm_up(self) -> None:
        await self._probe()

    # Fine: started only by a signal handler's lambda, whose task the loop
    # drops.
    async def drain(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, "--drain")
        await asyncio.sleep(0.5)
        await proc.wait()

    # Still a swallow: the loop's teardown cancels this task at exit, and
    # the handler keeps it listening.
    async def listen(self) -> None:
        while True:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:  # expect: CAN401
                continue


class BatchRecognizer:
    def __init__(self, command: str) -> None:
        self.command = command
        self.result: Optional[bytes] = None
        # a lambda kept: whoever calls it holds the task it returns
        self._flusher = lambda: asyncio.create_task(self.flush())

    def flush_now(self) -> None:
        task = self._flusher()
        task.cancel()

    # Buggy: extension.py keeps this task and cancels it in on_stop().
    async def run(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, stdout=asyncio.subprocess.PIPE)
        self.result = await proc.stdout.read()  # expect: CAN102
        await proc.wait()

    # Buggy: started by a lambda the class keeps and calls, whose caller
    # holds the task it returns and cancels it.
    async def flush(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, "--flush")
        await asyncio.sleep(0.5)  # expect: CAN102
        await proc.wait()

    # Buggy: also awaited in place by Extension.transcribe, whose caller may
    # cancel it.
    async def decode(self) -> bytes:
        proc = await asyncio.create_subprocess_exec(self.command, "--decode", stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()  # expect: CAN102
        return out
