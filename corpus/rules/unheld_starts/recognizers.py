"""Speech recognizer clients, each driving a child process."""

import asyncio
from typing import Optional


class StreamingRecognizer:
    def __init__(self, command: str) -> None:
        self.command = command
        self.text = ""

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

    # Buggy: extension.py keeps this task and cancels it in on_stop().
    async def run(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, stdout=asyncio.subprocess.PIPE)
        self.result = await proc.stdout.read()  # expect: CAN102
        await proc.wait()

    # Buggy: also awaited in place by Extension.transcribe, whose caller may
    # cancel it.
    async def decode(self) -> bytes:
        proc = await asyncio.create_subprocess_exec(self.command, "--decode", stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()  # expect: CAN102
        return out
