"""A path named before the file it names is made.

`out = snapshot_path(store, gen)` only names a file; the function makes it
later (`with open(out, "wb")`, `out.write_bytes(...)`). Before that there
is nothing to remove, so an await between the naming and the making is no
window, even though the cleanup unlinks the path. The twin writes the file
first and awaits with only an `except Exception` to remove it.
"""

from pathlib import Path
from typing import Any


def snapshot_path(folder: Path, store: str, gen: int) -> Path:
    return folder / f"{store}-{gen}.snapshot"


async def save_snapshot(folder: Path, store: str, gen: int, db: Any) -> None:
    # Fine: the file does not exist yet at the fetch.
    out = snapshot_path(folder, store, gen)
    try:
        data = await db.fetch_tree(store)
        out.write_bytes(data)
    except Exception:
        out.unlink(missing_ok=True)
        raise


async def save_and_confirm(folder: Path, store: str, gen: int, db: Any) -> None:
    out = snapshot_path(folder, store, gen)
    try:
        out.write_bytes(b"")
        # Buggy twin: the file is made; a cancellation here leaves it, and
        # only an ordinary error removes it.
        data = await db.fetch_tree(store)  # expect: CAN101
        out.write_bytes(data)
    except Exception:
        out.unlink(missing_ok=True)
        raise
