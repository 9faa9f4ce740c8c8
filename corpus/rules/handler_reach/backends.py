"""Backends a tunnel frontend awaits for each connection."""

import asyncio
from typing import Any


class TunnelBackend:
    def __init__(self, command: str) -> None:
        self.command = command

    # Fine: awaited in place only by a connection handler nothing cancels.
    async def bind(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, stdin=asyncio.subprocess.PIPE)
        await writer.drain()
        await self._copy(reader, proc)
        proc.kill()
        await proc.wait()

    # Fine: the same, made right there by the handler that awaits it.
    async def echo(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, stdin=asyncio.subprocess.PIPE)
        await writer.drain()
        await self._copy(reader, proc)
        proc.kill()
        await proc.wait()

    # Buggy: the health check awaits it under a timeout.
    async def probe(self) -> int:
        proc = await asyncio.create_subprocess_exec(self.command, "--version")
        await asyncio.sleep(0.1)  # expect: CAN102
        proc.kill()
        return await proc.wait()

    async def _copy(self, reader: asyncio.StreamReader, proc: Any) -> None:
        while data := await reader.read(4096):
            proc.stdin.write(data)
            await proc.stdin.drain()


class LineAgent:
    def __init__(self, command: str) -> None:
        self.command = command

    def start(self) -> None:
        asyncio.get_running_loop().create_task(self.serve_lines())

    # Buggy: health.py starts it as a task and cancels that task.
    async def serve_lines(self) -> None:
        while True:
            await self.read_line()

    async def read_line(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, "--line")
        await asyncio.sleep(0.1)  # expect: CAN102
        proc.kill()
        await proc.wait()
