"""A test that says the value has finished, nested in a chain of the other
operator: `proc is None or (isinstance(proc, K) and proc.returncode is not
None)` is true only when nothing is left to release, whichever operand
holds. An end time that is set (`span.end_timestamp is not None`) says a
span has ended, as a return code says a process has.
"""

import asyncio
from typing import Any


class StreamedTrace:
    pass


# Fine: on the early return the process is None or has exited.
async def run_unless_exited(cmd: list, proc: Any, orig: Any) -> Any:
    proc = await asyncio.create_subprocess_exec(*cmd)
    if proc is None or (isinstance(proc, StreamedTrace) and proc.returncode is not None) or (
        not isinstance(proc, StreamedTrace) and proc.returncode is not None
    ):
        return await orig()
    try:
        return await orig()
    finally:
        proc.kill()


# Buggy twin: an operand about something else says nothing of the process.
async def run_unless_ready(cmd: list, ready: bool, orig: Any) -> Any:
    proc = await asyncio.create_subprocess_exec(*cmd)
    if proc is None or (isinstance(proc, StreamedTrace) and ready):
        return await orig()  # expect: CAN102
    try:
        return await orig()
    finally:
        proc.kill()


# Fine: the span has ended (or was never started) on the early return.
async def traced_turn(tracer: Any, orig: Any) -> Any:
    span = tracer.start_span("turn")
    if span is None or (isinstance(span, StreamedTrace) and span.end_timestamp is not None):
        return await orig()
    try:
        return await orig()
    except BaseException:
        span.__exit__(None, None, None)
        raise


# Buggy twin: a span not yet ended is live across the early return's await.
async def traced_turn_early(tracer: Any, orig: Any) -> Any:
    span = tracer.start_span("turn")
    if span is None or isinstance(span, StreamedTrace):
        return await orig()  # expect: CAN102
    try:
        return await orig()
    except BaseException:
        span.__exit__(None, None, None)
        raise
