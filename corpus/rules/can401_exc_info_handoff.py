"""A handler with no `as` name that hands the exception on by `sys.exc_info()`.

A driver that runs synchronous code in a coroutine-like context (a
greenlet, a generator) throws whatever the await raised into that code,
`ctx.throw(*sys.exc_info())`, where it unwinds and comes back out: the
cancellation is raised there, not dropped. The twin only logs
`sys.exc_info()` and goes on.
"""

import logging
import sys
from typing import Any


async def drive(ctx: Any, first: Any) -> Any:
    # Fine: the caught exception is thrown into the driven code.
    result = first
    while not ctx.dead:
        try:
            value = await result
        except BaseException:
            result = ctx.throw(*sys.exc_info())
        else:
            result = ctx.switch(value)
    return result


async def drive_and_log(ctx: Any, first: Any) -> Any:
    # Buggy twin: the exception is only logged, and the loop goes on.
    result = first
    while not ctx.dead:
        try:
            value = await result
        except BaseException:  # expect: CAN401
            logging.warning("step failed: %s", sys.exc_info()[1])
            result = ctx.switch(None)
        else:
            result = ctx.switch(value)
    return result


async def attempt(state: Any, fn: Any) -> None:
    # Buggy twin: the whole exc_info tuple is kept as the attempt's outcome;
    # whether anything raises it again is the retry policy's choice.
    while True:
        try:
            state.set_result(await fn())
        except BaseException:  # expect: CAN401
            state.set_exception(sys.exc_info())
        if state.finished:
            return
