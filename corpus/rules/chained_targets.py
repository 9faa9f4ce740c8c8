"""`REG[key] = value = make()` stores the value it names.

A chained assignment binds one object to every target. When one target is
a registry entry (a module-level dict, an attribute of an owner), the
object is registered on the same line it is made, before any checkpoint:
a cancellation afterwards leaves it where the registry's teardown finds
it. Binding the targets one by one to the call would lose that store and
report the value as unowned.
"""

from __future__ import annotations

import asyncio
from typing import Any

LIVE: dict[str, Any] = {}


class Manager:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __aenter__(self) -> Manager:
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.sleep(0)


LOCK = asyncio.Lock()


# Fine: the manager is in LIVE as soon as it exists, and the finally pops it
# from there and exits it, whatever the enter or the body did.
async def run_with_manager(key: str, app: Any, body: Any) -> None:
    async with LOCK:
        LIVE[key] = manager = Manager(app)
        await manager.__aenter__()
    try:
        await body()
    finally:
        manager = LIVE.pop(key)
        await manager.__aexit__(None, None, None)


class Pool:
    def __init__(self) -> None:
        self.sessions: dict[str, Any] = {}

    # Fine: the chain stores the session in the pool before the await.
    async def open_session(self, name: str, factory: Any) -> None:
        self.sessions[name] = session = factory.connect(name)
        try:
            await session.handshake()
        except Exception:
            del self.sessions[name]
            await session.close()
            raise

    async def aclose(self) -> None:
        for session in self.sessions.values():
            await session.close()


# Buggy twin: the chain binds two names, neither of them an owner; the
# session is closed only by the handler, which cancellation skips.
async def open_loose(factory: Any, name: str) -> Any:
    first = session = factory.connect(name)
    try:
        await session.handshake()  # expect: CAN101
    except Exception:
        await first.close()
        raise
    return session
