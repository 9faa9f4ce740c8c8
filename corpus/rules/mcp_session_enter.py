"""The MCP SDK's ClientSession enters without suspending: its __aenter__
only opens an anyio task group and starts the receive loop in it. A
transport context entered by hand and closed only on an error is not
exposed there; it is at the session's first request (`initialize`).
"""

from typing import Any

from mcp import ClientSession


class McpLink:
    def __init__(self, make_context: Any) -> None:
        self._make_context = make_context
        self._context: Any = None
        self._session: Any = None

    # Fine: nothing suspends between the transport's enter and the stores.
    async def open(self) -> None:
        context = self._make_context()
        reader, writer = await context.__aenter__()
        session = ClientSession(reader, writer)
        try:
            await session.__aenter__()
        except Exception:
            await context.__aexit__(None, None, None)
            raise
        self._context = context
        self._session = session

    # Buggy twin: the first request suspends before anything owns the transport.
    async def open_and_greet(self) -> None:
        context = self._make_context()
        reader, writer = await context.__aenter__()
        session = ClientSession(reader, writer)
        try:
            await session.__aenter__()
            await session.initialize()  # expect: CAN101
        except Exception:
            await context.__aexit__(None, None, None)
            raise
        self._context = context
        self._session = session
