"""Commands a decorator runs as the program's main coroutine.

`@asyncio_run` (named as a runner) and `@coro` (whose wrapper calls
`asyncio.run` on the decorated function, the usual click idiom) wrap the
command so that calling it runs it with `asyncio.run`: a cancellation it
ends quietly on is the program's shutdown (^C). The twin's decorator only logs around the call; the coroutine it
returns is awaited by whoever calls it.
"""

import asyncio
import functools
from typing import Any, Callable


def asyncio_run(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


def coro(f: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(f(*args, **kwargs))

    return run


def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        print("calling", fn.__name__)
        return await fn(*args, **kwargs)

    return wrapper


@asyncio_run
async def tail_cmd(host: str, port: int) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while line := await reader.readline():
            print(line.decode().rstrip())
    except asyncio.CancelledError:
        print("bye")
    writer.close()


@coro
async def watch_cmd(path: str) -> None:
    try:
        while True:
            await asyncio.sleep(1)
    except asyncio.CancelledError:
        print("stopped watching", path)


@logged
async def probe_cmd(port: int) -> None:
    try:
        await asyncio.sleep(port)
    except asyncio.CancelledError:  # expect: CAN401
        print("probe stopped")
