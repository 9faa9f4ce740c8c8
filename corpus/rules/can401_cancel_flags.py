"""CAN401: a returned flag that tells the caller the call was cancelled.

``return await asyncio.shield(worker), False`` on the normal path and
``return await worker, True`` in the cancellation handler: the handler lets
the shielded work finish and hands its result back with the flag set, for
the caller to raise (``if cancelled: raise asyncio.CancelledError``). A
handler that returns the same ``False`` as the normal path drops the
cancellation.
"""

import asyncio
from typing import Any, Tuple


async def run_worker(work: Any) -> Tuple[Any, bool]:
    worker = asyncio.create_task(asyncio.to_thread(work))
    try:
        return await asyncio.shield(worker), False
    except asyncio.CancelledError:
        return await worker, True


async def run_worker_quietly(work: Any) -> Tuple[Any, bool]:
    worker = asyncio.create_task(asyncio.to_thread(work))
    try:
        return await asyncio.shield(worker), False
    except asyncio.CancelledError:  # expect: CAN401
        return await worker, False


async def save(work: Any) -> Any:
    result, cancelled = await run_worker(work)
    if cancelled:
        raise asyncio.CancelledError
    return result
