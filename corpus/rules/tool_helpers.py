"""A value handed to a cleanup helper is released by it only if the helper
does something with it that can release it. A helper that uses the value as
a tool (`fs.rm(path)`: the receiver of a call given what to work on) cleans
up something else.
"""

from typing import Any

from .storage import check, make_filesystem


def _cleanup_fs(path: str, fs: Any) -> None:
    fs.close()


# Fine: the cleanup helper removes a stale directory with fs; fs itself is
# no resource the function has to release.
async def prune(log_dir: str) -> None:
    fs = make_filesystem(log_dir)
    for d in fs.ls(log_dir):
        try:
            await check(d)
        except FileNotFoundError:
            _cleanup_dir(d, fs)


def _cleanup_dir(path: str, fs: Any) -> None:
    fs.rm(path, recursive=True)
    fs.invalidate_cache(path)


# Leaks: this helper closes what it is given, so fs is a resource that only
# the `except FileNotFoundError` path releases.
async def prune_closing(log_dir: str) -> None:
    fs = make_filesystem(log_dir)
    try:
        await check(log_dir)  # expect: CAN101
    except FileNotFoundError:
        _cleanup_fs(log_dir, fs)
