"""A flag made with the value says whether the value is the function's.

`conn, path, close_conn = await resolve(target)` hands back a connection
and whether `resolve` opened it (a connection passed in stays the
caller's). The function closes it under `if close_conn:`; where that test
fails, the connection is someone else's and no window of this function's
can leak it. Where the test holds, or before it, the connection is the
function's as any other.
"""

from typing import Any


async def resolve(target: Any) -> tuple[Any, str, bool]:
    if isinstance(target, tuple):
        return target[0], target[1], False
    conn = await target.connect()
    return conn, target.path, True


# Fine: each pass closes the connection it opened in its finally; one the
# caller passed in goes round the loop unclosed, which is right, and is no
# leak at the next pass's `await resolve(...)`.
async def copy_all(targets: list, sink: Any) -> None:
    for target in targets:
        conn, path, close_conn = await resolve(target)
        try:
            await sink.copy_from(conn, path)
        finally:
            if close_conn:
                conn.close()
                await conn.wait_closed()


# Buggy twin: before the test, the connection resolve opened is the
# function's; the handler that would close it on a failure of the audit
# does not catch cancellation.
async def open_audited(target: Any, audit: Any) -> Any:
    conn, path, close_conn = await resolve(target)
    try:
        await audit.record(path)  # expect: CAN101
    except Exception:
        if close_conn:
            conn.close()
        raise
    return conn
