"""aiohttp's response releases itself when a read of its body is cancelled.

`ClientResponse.read()` reads the body under `except BaseException:
self.close(); raise`, and `text()` and `json()` read through it: awaited on
a parameter annotated as an aiohttp response, the read is the cancellation's
way into the response, which releases it (catalog cancel-closes). A helper
of the tree whose await does so passes the cancellation into its parameter,
and so does a helper that hands its parameter to such a helper: the
caller's response is no window at the call. Unannotated, the response is
some object whose read releases nothing known.
"""

from typing import Any

import aiohttp


async def reason_of(response: aiohttp.ClientResponse) -> str:
    try:
        data = await response.json()
        return str(data.get("error", data))
    except Exception:
        return await response.text()


async def raise_for(response: aiohttp.ClientResponse) -> None:
    if response.status >= 400:
        reason = await reason_of(response)
        raise RuntimeError(reason)


# Fine: a cancellation in raise_for lands in the response's own read.
async def status_of(session: Any, url: str) -> int:
    response = await session.get(url)
    try:
        await raise_for(response)
    except Exception:
        response.release()
        raise
    status = response.status
    response.release()
    return status


async def reason_untyped(response: Any) -> str:
    return await response.text()


# Buggy twin: the helper's response is of no known class.
async def status_untyped(session: Any, url: str) -> int:
    response = await session.get(url)
    code = response.status
    if code < 400:
        response.release()
        return code
    try:
        reason = await reason_untyped(response)  # expect: CAN101
    except Exception:
        response.release()
        raise
    response.release()
    raise RuntimeError(reason)
