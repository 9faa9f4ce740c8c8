"""An exit stack made with no arguments holds nothing until something is
entered on it. A class whose constructor keeps only such a stack (and
plain data) makes objects that hold nothing until a method of theirs
enters something: cancelled before that, a fresh object leaks nothing. A
constructor that also opens something (a socket, a task) leaves the object
holding it from the start.
"""

import asyncio
import contextlib
import socket
import sys
from typing import Any


class StackedAgent:
    def __init__(self) -> None:
        self.stack = contextlib.AsyncExitStack()
        self.session_id: Any = None

    async def start(self, argv: list) -> None:
        proc = await asyncio.create_subprocess_exec(*argv)
        self.stack.push_async_callback(proc.wait)
        self.stack.callback(proc.kill)

    async def aclose(self) -> None:
        await self.stack.aclose()


class PinnedAgent:
    def __init__(self) -> None:
        self.stack = contextlib.AsyncExitStack()
        self.beacon = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    async def aclose(self) -> None:
        self.beacon.close()
        await self.stack.aclose()


# Fine: the agent holds only an empty stack while the pipe is attached.
async def serve_agent(argv: list) -> None:
    agent = StackedAgent()
    reader = asyncio.StreamReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    await asyncio.get_running_loop().connect_read_pipe(lambda: protocol, sys.stdin.buffer)
    try:
        await agent.start(argv)
        await reader.readline()
    finally:
        await agent.aclose()


# Buggy twin: this agent's constructor already opened a socket.
async def serve_pinned(argv: list) -> None:
    agent = PinnedAgent()
    reader = asyncio.StreamReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    await asyncio.get_running_loop().connect_read_pipe(lambda: protocol, sys.stdin.buffer)  # expect: CAN102
    try:
        await reader.readline()
    finally:
        await agent.aclose()
