"""Objects made by alternative constructors of another module's classes."""

from typing import Any

from .ledgers import Ledger, NoteLedger, Sandbox, TokenLedger


class Manager:
    def __init__(self, store: Any) -> None:
        self.store = store
        self.ledgers: dict = {}
        self.boxes: list = []

    # Fine: a Ledger holds nothing (its static create is followed to the
    # class); a cancellation at the commit drops plain bookkeeping.
    async def add_ledger(self, info: Any) -> None:
        ledger = await Ledger.create(self, info)
        await self.store.commit()
        self.ledgers[info.id] = ledger

    # Fine: the same through a classmethod returning Self.
    async def add_token_ledger(self, info: Any) -> None:
        ledger = await TokenLedger.create(self, info)
        await self.store.commit()
        self.ledgers[info.id] = ledger

    # Fine: the same through `cls: type[T]` returning T.
    async def add_note_ledger(self, info: Any) -> None:
        ledger = await NoteLedger.create(self, info)
        await self.store.commit()
        self.ledgers[info.id] = ledger

    # Buggy twin: a Sandbox is a remote machine that kill() deletes; made
    # and not yet stored, a cancellation at the commit loses it.
    async def add_sandbox(self, api: Any) -> None:
        box = await Sandbox.create(api)
        await self.store.commit()  # expect: CAN102
        self.boxes.append(box)
