"""A handler that hands its caller a status saying the work was cancelled.

An interruption protocol: the model call that is cancelled returns a
response whose finish reason says INTERRUPTED, a stream marks what it has
gathered so and yields it, a tool returns a result flagged
`cancelled=True`. The caller's code tests that status and ends its turn,
as it would on a returned exception. A message for a reader ("was
cancelled") or a flag kept on self or in a local that nothing hands back
tells the caller nothing: the cancellation is swallowed.
"""

import asyncio
import enum
from dataclasses import dataclass, field


class FinishReason(enum.Enum):
    STOP = "stop"
    INTERRUPTED = "interrupted"


@dataclass
class Response:
    text: str = ""
    finish_reason: FinishReason = FinishReason.STOP
    parts: list = field(default_factory=list)


@dataclass
class ToolResult:
    output: str
    cancelled: bool = False


class Model:
    def __init__(self, client):
        self.client = client
        self._interrupted = False

    # Fine: the caller reads finish_reason.
    async def complete(self, prompt):
        try:
            text = await self.client.complete(prompt)
        except asyncio.CancelledError:
            return Response(finish_reason=FinishReason.INTERRUPTED)
        return Response(text=text)

    # Fine: what was gathered is marked and yielded at the end.
    async def stream(self, prompt):
        acc = Response()
        try:
            async for part in self.client.stream(prompt):
                acc.parts.append(part)
                yield part
        except asyncio.CancelledError:
            acc.finish_reason = FinishReason.INTERRUPTED
        yield acc

    # Fine: a tool result the agent loop tests.
    async def run_tool(self, tool, args):
        try:
            out = await tool(**args)
        except asyncio.CancelledError:
            return ToolResult(output="", cancelled=True)
        return ToolResult(output=out)

    # Buggy: only a message for whoever reads the output.
    async def run_tool_text(self, tool, args):
        try:
            return await tool(**args)
        except asyncio.CancelledError:  # expect: CAN401
            return "The tool call was cancelled."

    # Buggy: the flag stays on self; the caller gets None.
    async def warm_up(self):
        try:
            await self.client.complete("ping")
        except asyncio.CancelledError:  # expect: CAN401
            self._interrupted = True

    # Buggy: a local flag nothing hands back.
    async def probe(self):
        interrupted = False
        try:
            await self.client.complete("ping")
        except asyncio.CancelledError:  # expect: CAN401
            interrupted = True
        print("probe done", interrupted)
        return self.client.name
