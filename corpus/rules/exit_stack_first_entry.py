"""An exit stack's first entry.

`stack = AsyncExitStack()` then `resp = await stack.enter_async_context(cm)`:
until that enter returns the stack holds nothing (a cancellation inside the
context's own enter is the context's to clean up), so the first entry is no
window of the stack; one in another branch of the same if/elif chain is a
first entry too. The twin's second entry finds the first one held by a
stack nothing closes on cancellation.
"""

import contextlib
from typing import Any


async def proxy(client: Any, url: str, background: Any) -> Any:
    # Fine: the stack is handed to the response's background task once the
    # request is open; before that it is empty.
    stack = contextlib.AsyncExitStack()
    try:
        resp = await stack.enter_async_context(client.request("GET", url))
    except OSError:
        await stack.aclose()
        return None
    return background(resp, stack.aclose)


async def open_transport(params: Any, stdio_client: Any, http_client: Any, keep: Any) -> Any:
    stack = contextlib.AsyncExitStack()
    try:
        # Fine: each branch's entry is the stack's first on its path.
        if params.kind == "stdio":
            streams = await stack.enter_async_context(stdio_client(params))
        else:
            streams = await stack.enter_async_context(http_client(params.url))
        # Buggy twin: the transport is held by the stack, which only an
        # ordinary error closes.
        session = await stack.enter_async_context(params.session(*streams))  # expect: CAN101
    except Exception:
        await stack.aclose()
        raise
    keep(stack)
    return session


async def open_framed(host: str, port: int, framed: Any) -> Any:
    import anyio

    sock = await anyio.connect_tcp(host, port)
    stack = contextlib.AsyncExitStack()
    # Buggy twin: the first entry works on a socket the function still
    # owns; cancelled inside the framing's enter, nothing closes it.
    conn = await stack.enter_async_context(framed(sock))  # expect: CAN102
    return conn, stack
