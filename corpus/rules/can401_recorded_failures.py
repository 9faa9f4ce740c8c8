"""CAN401: a best-effort step inside the handler of an earlier failure.

The outer handler records the failure (``failure = err``) before it tries a
best-effort abort whose bare ``except`` also catches cancellation; every
path through that inner handler started in the outer one, so the record is
set, and the function ends by raising it: the cancellation is replaced by
the upload's own error, not dropped. Without such a record (or with one
one that is only reported), the path completes and the cancellation is lost.
"""

import asyncio
from typing import Any, List, Optional


async def finish_upload(client: Any, parts: List[Any]) -> None:
    failure: Optional[BaseException] = None
    try:
        await client.complete(parts)
    except Exception as err:
        failure = err
        try:
            await client.abort()
        except:  # noqa: E722
            pass
    await client.flush_log()
    if failure:
        raise failure


async def finish_upload_quietly(client: Any, parts: List[Any]) -> bool:
    try:
        await client.complete(parts)
    except Exception:
        try:
            await client.abort()
        except:  # noqa: E722  # expect: CAN401
            pass
        return False
    return True


async def finish_upload_reported(client: Any, parts: List[Any]) -> None:
    # the record is only reported, never raised: the path completes
    failure: Optional[BaseException] = None
    try:
        await client.complete(parts)
    except Exception as err:
        failure = err
        try:
            await client.abort()
        except:  # noqa: E722  # expect: CAN401
            pass
    await client.report(failure)


async def reclaim_all(reclaim: Any, pending: Optional[BaseException] = None) -> Any:
    # `pending = pending or exc` records the first cancellation; the drain
    # loop keeps shielding, and the record is raised at the end
    try:
        state = await asyncio.shield(reclaim)
    except asyncio.CancelledError as exc:
        pending = pending or exc
        while not reclaim.done():
            try:
                await asyncio.shield(reclaim)
            except asyncio.CancelledError:
                pass
        state = reclaim.result()
    if pending is not None:
        raise pending
    return state


async def reclaim_all_quietly(reclaim: Any, pending: Optional[BaseException] = None) -> Any:
    try:
        state = await asyncio.shield(reclaim)
    except asyncio.CancelledError as exc:  # expect: CAN401
        pending = pending or exc
        state = await reclaim
    print(pending)
    return state
