"""Acquiring a slot of a shared limiter.

`await limiter.acquire_on_behalf_of(token)` on a limiter the function did
not make (a shared default): the value is known as a resource only because
a handler releases it (`limiter.release_on_behalf_of(token)`). Until the
acquire returns it holds nothing that release would give back, and a
cancelled acquire takes nothing, so the acquire itself is no window. A
wait after it, with nothing to release the slot, is.
"""

from typing import Any

import filelock


def default_limiter() -> Any: ...


# Fine: the acquire is the only checkpoint before the try that releases.
async def run_in_slot(work: Any, token: object) -> Any:
    limiter = default_limiter()
    await limiter.acquire_on_behalf_of(token)
    try:
        return work()
    except BaseException:
        limiter.release_on_behalf_of(token)
        raise


# Buggy: a wait after the acquire, outside the try that releases the slot.
async def run_in_slot_late(work: Any, token: object, ready: Any) -> Any:
    limiter = default_limiter()
    await limiter.acquire_on_behalf_of(token)
    await ready.wait()  # expect: CAN102
    try:
        return work()
    except BaseException:
        limiter.release_on_behalf_of(token)
        raise


# Fine: `aacquire` (the async variant's name) takes the lock or, cancelled,
# nothing; the try right after it releases it.
async def pull_locked(path: str, pull: Any) -> None:
    lock = filelock.AsyncFileLock(path + ".lock")
    await lock.aacquire()
    try:
        await pull()
    finally:
        lock.release()
