"""Thread work in a loop is one finding, however often the loop is read.

The walk goes round a loop until what it knows settles, so the same
executor is met on several passes; the window it opens is reported once.
"""

import asyncio
import functools
from typing import Any, AsyncIterator

from tunnels import opener  # type: ignore[import-not-found]


# Buggy: each endpoint's tunnel is made in a worker thread; a cancellation
# of the await drops the tunnel the thread goes on to make (the finally
# sees only the previous one).
async def follow_endpoints(endpoints: Any) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    tunnel = None
    try:
        async for url in endpoints:
            if tunnel is not None:
                await loop.run_in_executor(None, opener.disconnect, tunnel.public_url)
            tunnel = await loop.run_in_executor(None, functools.partial(opener.connect, url, tls=True))  # expect: CAN203
            yield tunnel.public_url
    finally:
        if tunnel is not None:
            await loop.run_in_executor(None, opener.disconnect, tunnel.public_url)
