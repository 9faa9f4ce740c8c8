"""Containers that module state keeps.

A local bound to a container the module keeps (`workers =
_workers_var.get()`, `entries = _REGISTRY[key]`) is a view of that state:
what the function stores in it is the module's from then on, as if stored
in the module global itself. A container the function makes is its own.
"""

import asyncio
from contextvars import ContextVar
from typing import Any

_workers_var: ContextVar[set] = ContextVar("_workers_var")
_REGISTRY: dict = {}


# Fine: the process goes into the pool the context variable holds.
async def start_worker(cmd: list) -> Any:
    workers = _workers_var.get()
    proc = await asyncio.create_subprocess_exec(*cmd)
    workers.add(proc)
    await proc.stdin.drain()
    return proc


# Fine: the same through a module dict's entry.
async def start_named(key: str, cmd: list) -> None:
    entries = _REGISTRY.setdefault(key, [])
    proc = await asyncio.create_subprocess_exec(*cmd)
    entries.append(proc)
    await proc.stdin.drain()


# Buggy: a set made here holds the process only for this call.
async def start_local(cmd: list) -> None:
    workers: set = set()
    proc = await asyncio.create_subprocess_exec(*cmd)
    workers.add(proc)
    await proc.stdin.drain()  # expect: CAN102
    for w in workers:
        w.kill()
