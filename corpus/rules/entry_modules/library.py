"""The same contexts in a module that runs nothing itself."""

from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, AsyncIterator


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


# Buggy: a user may enter it under a timeout, which cancels the enter.
@asynccontextmanager
async def server_main(config: Any) -> AsyncIterator[Any]:
    stack = AsyncExitStack()
    await stack.__aenter__()
    try:
        await stack.enter_async_context(webapp_ctx(config))
        await stack.enter_async_context(discovery_ctx(config))  # expect: CAN102
    except Exception:
        config.log_failure()
    try:
        yield
    finally:
        await stack.__aexit__(None, None, None)
