"""A worker's root context that its server library never cancels.

aiotools runs an `@aiotools.server_context` generator as the root of each
worker process: it enters it, waits on a future of its own, and on a stop
signal ends that future so the context goes on past its yield. Nothing
cancels the context's startup or its teardown, so a window there meets no
cancellation. The same startup in a plain `@asynccontextmanager` can be
entered by any caller, under a timeout or a task group, and keeps its
window.
"""

from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, AsyncIterator

import aiotools


@aiotools.server_context
async def server_main(loop: Any, pidx: int, args: Any) -> AsyncIterator[None]:
    stack = AsyncExitStack()
    await stack.__aenter__()
    await args.bootstrap(stack)
    try:
        yield
    finally:
        await stack.aclose()


@asynccontextmanager
async def service_ctx(args: Any) -> AsyncIterator[None]:
    stack = AsyncExitStack()
    await stack.__aenter__()
    await args.bootstrap(stack)  # expect: CAN102
    try:
        yield
    finally:
        await stack.aclose()
