"""Values made by the `as` target of a context manager that is no resource
maker itself (`async with pool.connection() as conn`) are owned through it:
closing the connection frees the cursors it made.
"""

from typing import Any


class Store:
    def __init__(self, db: Any) -> None:
        self._db = db

    def _connect(self) -> Any:
        return self._db.connection()

    # Fine: the cursor belongs to the managed connection, which the
    # context manager closes with everything made from it.
    async def pop_last(self) -> Any:
        async with self._connect() as conn:
            cursor = await conn.execute("DELETE FROM t RETURNING data")
            try:
                row = await cursor.fetchone()
            except Exception:
                await cursor.close()
                raise
            await cursor.close()
            return row

    # Leaks: the same cursor from a connection nothing manages.
    async def pop_last_unmanaged(self) -> Any:
        conn = self._db.raw_connection()
        cursor = await conn.execute("DELETE FROM t RETURNING data")
        try:
            row = await cursor.fetchone()  # expect: CAN101
        except Exception:
            await cursor.close()
            raise
        await cursor.close()
        self._db.keep(conn)
        return row
