"""A module function of the same name, a context manager factory."""

from typing import Any, AsyncGenerator


def open_stream(url: str) -> Any:
    raise NotImplementedError(url)


async def lines_of(url: str) -> AsyncGenerator[bytes, None]:
    async with open_stream(url) as stream:
        async for line in stream:
            yield line


async def wait(duration: float) -> str:
    """A tool of the tree that happens to be called wait; it never suspends."""
    return f"waited {duration}"
