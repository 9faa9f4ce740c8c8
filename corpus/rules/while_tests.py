"""Each pass of a `while` starts where its test holds.

`while not conn:` runs its body only where `conn` is empty: the connection
made at the end of one pass either ends the loop (it is set) or is None
(the make failed), so the next pass starts holding nothing, as the branch
of an `if not conn:` does. A loop whose test is about something else keeps
the previous pass's connection live at the top.
"""

import asyncio
from typing import Any, Optional


class ConnPool:
    def __init__(self, host: str) -> None:
        self._host = host
        self._idle: asyncio.Queue = asyncio.Queue()
        self._in_use: set = set()

    async def _create_conn(self) -> Any:
        reader, writer = await asyncio.open_connection(self._host, 11211)
        return writer

    # Fine: the loop goes round only while conn is None.
    async def acquire(self) -> Any:
        conn: Optional[Any] = None
        while not conn:
            old = await self._idle.get()
            if old.broken():
                old.close()
                conn = await self._create_conn()
            else:
                conn = old
        self._in_use.add(conn)
        return conn

    # Buggy: the loop's test is a counter; the connection of a failed check
    # is still open when the next pass waits.
    async def acquire_checked(self, tries: int) -> Any:
        while tries > 0:
            conn = await self._create_conn()  # expect: CAN102
            await asyncio.sleep(0.1)
            if conn.healthy():
                self._in_use.add(conn)
                return conn
            tries -= 1
        return None
