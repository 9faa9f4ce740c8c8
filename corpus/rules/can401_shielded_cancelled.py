"""A handler that swallows only a cancellation of the task it shielded.

`await asyncio.shield(worker)` (or `wait_for(shield(fetch), t)`) raises
this task's cancellation while the shielded task runs on, so the shielded
task is cancelled only by someone else. A handler that asks
`fetch.cancelled()` (the task's own or an attribute's,
`conn.worker.cancelled()`) and raises otherwise swallows that other
party's cancellation, not the caller's. Without the shield, the caller's
cancellation cancels the awaited task too and the test tells nothing; a
handler that never raises swallows both.
"""

import asyncio
from typing import Any, Optional


# Fine: the shared fetch was cancelled by another waiter; this caller's own
# cancellation raises.
async def shared_result(fetch: "asyncio.Future[str]", timeout: float) -> Optional[str]:
    try:
        return await asyncio.wait_for(asyncio.shield(fetch), timeout)
    except asyncio.TimeoutError:
        return None
    except asyncio.CancelledError:
        if fetch.cancelled():
            return None
        raise


class Link:
    worker: Any


# Fine: the test is of the shielded attribute.
async def wait_worker(link: Link) -> bool:
    try:
        await asyncio.shield(link.worker)
    except asyncio.CancelledError:
        if not link.worker.cancelled():
            raise
    return True


# Buggy: no shield, so the caller's cancellation cancels the fetch as well.
async def shared_result_unshielded(fetch: "asyncio.Future[str]") -> Optional[str]:
    try:
        return await fetch
    except asyncio.CancelledError:  # expect: CAN401
        if fetch.cancelled():
            return None
        raise


# Buggy: asks, then goes on either way.
async def wait_worker_quietly(link: Link, log: Any) -> bool:
    try:
        await asyncio.shield(link.worker)
    except asyncio.CancelledError:  # expect: CAN401
        if link.worker.cancelled():
            log.info("worker was cancelled")
    return True
