"""Paths worked out, not things made.

A value is a resource only when something was made: `os.path.normpath(...)`
and the rest of `os.path`'s string arithmetic compute a path, and a
cleanup that later removes what sits at that path does not make the path
a resource before anything was created there. A directory
`tempfile.mkdtemp()` made is one.
"""

import asyncio
import os
import shutil
import tempfile


async def _fetch_manifest(url: str) -> bytes:
    await asyncio.sleep(0.1)
    return url.encode()


# Fine: nothing exists at repo_dir until the clone, which has its cleanup.
async def clone_into(base: str, name: str, url: str) -> str:
    repo_dir = os.path.normpath(os.path.join(base, name))
    await _fetch_manifest(url)
    proc = None
    try:
        proc = await asyncio.create_subprocess_exec("git", "clone", url, repo_dir)
        await proc.wait()
    except BaseException:
        if proc is not None and proc.returncode is None:
            proc.kill()
        shutil.rmtree(repo_dir, ignore_errors=True)
        raise
    return repo_dir


# Buggy twin: mkdtemp made the directory before the fetch.
async def clone_into_scratch(url: str) -> str:
    scratch = tempfile.mkdtemp(prefix="clone-")
    await _fetch_manifest(url)  # expect: CAN102
    proc = None
    try:
        proc = await asyncio.create_subprocess_exec("git", "clone", url, scratch)
        await proc.wait()
    except BaseException:
        if proc is not None and proc.returncode is None:
            proc.kill()
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return scratch
