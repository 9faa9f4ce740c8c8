"""A swallow that is an option of a decorator factory.

`def guarded(log, reraise_cancellation=True)` makes a decorator whose
wrapper re-raises a cancellation only when the option is on: the option
is the caller's, fixed when the wrapper is made, and on by default. A
name the wrapper reads that the factory binds in its own body is state,
not an option, and a swallow it guards is still reported.
"""

import asyncio
import functools


# Fine: the factory's parameter decides; by default the wrapper re-raises.
def guarded(log, reraise_cancellation: bool = True):
    def wrap(func):
        @functools.wraps(func)
        async def wrapped(*args, **kwargs):
            try:
                return await func(*args, **kwargs)
            except asyncio.CancelledError:
                if reraise_cancellation:
                    raise
                log.info("cancelled")
            return None

        return wrapped

    return wrap


# Buggy twin: `quiet` is computed in the factory's body, not handed in by
# its caller: the wrapper swallows whenever it is set.
def hushed(log, level: int = 0):
    quiet = level > 1

    def wrap(func):
        async def wrapped(*args, **kwargs):
            try:
                return await func(*args, **kwargs)
            except asyncio.CancelledError:  # expect: CAN401
                if not quiet:
                    raise
            return None

        return wrapped

    return wrap
