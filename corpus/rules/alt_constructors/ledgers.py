"""Classes with alternative constructors (no coroutine window here)."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from typing_extensions import Self

_T = TypeVar("_T", bound="NoteLedger")


class Ledger:
    """Bookkeeping over the manager's store: owns nothing of its own. Its
    forget() deletes a record it is handed, which is not the ledger's, and
    drop_entry() has the manager delete the ledger's own row as part of
    the bookkeeping."""

    mgr: Any
    info: Any

    @staticmethod
    async def create(mgr: Any, info: Any) -> Ledger:
        self = Ledger()
        self.mgr = mgr
        self.info = info
        self.log = logging.getLogger(__name__)
        return self

    async def forget(self, rec: Any) -> None:
        await self.mgr.store.delete_record(rec.name())

    # (the manager drops the ledger's row when its last entry goes: a
    # step of the bookkeeping, not a release of something the ledger holds)
    async def drop_entry(self, entry: Any) -> None:
        await self.mgr.store.remove_entry(entry)
        if not await self.mgr.store.entries(self.info.id):
            await self.mgr.delete_ledger(self.info.id)


class TokenLedger:
    @classmethod
    async def create(cls, mgr: Any, info: Any) -> Self:
        self = cls()
        self.mgr = mgr
        await mgr.store.note(info.id)
        return self

    async def forget(self, rec: Any) -> None:
        await self.mgr.store.delete_record(rec.name())


class NoteLedger:
    @classmethod
    async def create(cls: type[_T], mgr: Any, info: Any) -> _T:
        self = cls()
        self.mgr = mgr
        return self

    async def forget(self, rec: Any) -> None:
        await self.mgr.store.delete_record(rec.name())


class Sandbox:
    """A handle to a remote sandbox: kill() deletes it by its own id."""

    api: Any
    sandbox_id: str

    @classmethod
    async def create(cls, api: Any) -> Self:
        sid = await api.create_sandbox()
        self = cls()
        self.api = api
        self.sandbox_id = sid
        return self

    async def kill(self) -> None:
        await self.api.delete_sandbox(self.sandbox_id)
