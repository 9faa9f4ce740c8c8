"""A value handed to a helper of the tree, after an argument that reads
several variables.

`await _close_after(f"{host}:{port}", writer)`: the f-string is one
argument, whatever it reads, so `writer` lands in the helper's second
parameter, which the helper closes in its `finally`. A tuple written in
place is one argument too (`_pipe((reader, writer), (up_r, up_w))`), and
a helper that closes `b[1]` closes what the caller put there, also through
a loop over a tuple (`for w in (a[1], b[1]): w.close()`) in a local
function it awaits on every way out.
"""

import asyncio
from typing import Any


async def _close_after(label: str, writer: Any) -> None:
    try:
        await writer.drain()
    finally:
        print("closing", label)
        writer.close()


async def _log_only(label: str, writer: Any) -> None:
    print(label, writer)
    await asyncio.sleep(0)


# Fine: the helper's second parameter, closed in its finally, gets writer.
async def greet(host: str, port: int) -> None:
    _reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"hello")
    await _close_after(f"{host}:{port}", writer)


# Buggy twin: the helper only logs what it is given.
async def greet_and_leave(host: str, port: int) -> None:
    _reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"hello")
    await _log_only(f"{host}:{port}", writer)  # expect: CAN102
    writer.close()


async def _pump(reader: Any, writer: Any) -> None:
    while data := await reader.read(4096):
        writer.write(data)


async def _pipe(a: tuple, b: tuple) -> None:
    async def close_both() -> None:
        for w in (a[1], b[1]):
            w.close()

    try:
        await asyncio.gather(_pump(a[0], b[1]), _pump(b[0], a[1]))
    except BaseException:
        await close_both()
        raise
    else:
        await close_both()


async def _pipe_half(a: tuple, b: tuple) -> None:
    async def close_first() -> None:
        for w in (a[1],):
            w.close()

    print("piping to", b)
    try:
        await _pump(a[0], a[1])
    finally:
        await close_first()


# Fine: _pipe closes both writers however it ends.
async def forward(reader: Any, writer: Any, path: str) -> None:
    up_r, up_w = await asyncio.open_unix_connection(path)
    await _pipe((reader, writer), (up_r, up_w))


# Buggy twin: _pipe_half closes only the first pair's writer; the caller
# closes the second only once it returns.
async def forward_half(reader: Any, writer: Any, path: str) -> None:
    up_r, up_w = await asyncio.open_unix_connection(path)
    await _pipe_half((reader, writer), (up_r, up_w))  # expect: CAN102
    up_w.close()
