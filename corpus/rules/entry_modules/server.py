"""A worker entry: aiotools runs `worker` as the root context of a worker."""

from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, AsyncIterator

import aiotools


@asynccontextmanager
async def webapp_ctx(config: Any) -> AsyncIterator[Any]:
    runner = config.make_runner()
    try:
        await runner.setup()
        yield runner
    finally:
        await runner.cleanup()


@asynccontextmanager
async def discovery_ctx(config: Any) -> AsyncIterator[Any]:
    publisher = config.make_publisher()
    try:
        await publisher.start()
        yield publisher
    finally:
        await publisher.stop()


# Fine: entered only by the worker's root context, which nothing cancels.
@asynccontextmanager
async def server_main(config: Any) -> AsyncIterator[Any]:
    stack = AsyncExitStack()
    await stack.__aenter__()
    try:
        await stack.enter_async_context(webapp_ctx(config))
        await stack.enter_async_context(discovery_ctx(config))
    except Exception:
        config.log_failure()
    try:
        yield
    finally:
        await stack.__aexit__(None, None, None)


@aiotools.server_context
async def worker(loop: Any, pidx: int, args: Any) -> AsyncIterator[None]:
    async with server_main(args[0]):
        yield


def main(config: Any) -> None:
    aiotools.start_server(worker, num_workers=2, args=(config,))
