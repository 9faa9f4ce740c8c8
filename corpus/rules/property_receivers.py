"""A property's return annotation types what `self.NAME` reads.

`@property def ledger(self) -> Ledger` makes `self.ledger.settle(tx)` a call
of Ledger.settle, whose summary then applies: a settle that releases what it
is handed when it fails, cancellation included, takes the draft from the
caller at the call. A local of another method that happens to share the
property's name (`ledger = self.ledgers.get(key)`, `ledger =
open_ledger(name)`) is no attribute of the class: it hides neither the
annotation nor the constructor `self.ledger` is made from.
"""

from typing import Any, Optional


class Ledger:
    def __init__(self, network: Any, db: Any) -> None:
        self.network = network
        self.db = db

    async def release_draft(self, draft: Any) -> None:
        await self.db.release_outputs(draft)

    async def settle(self, draft: Any) -> None:
        try:
            await self.network.broadcast(draft)
        except BaseException:
            await self.release_draft(draft)
            raise

    async def settle_unguarded(self, draft: Any) -> None:
        await self.network.broadcast(draft)


class Drafts:
    async def create_draft(self, amount: int) -> Any:
        return await self.api.create_draft(amount)


class Wallet:
    def __init__(self, drafts: Drafts) -> None:
        self.drafts = drafts
        self.ledgers: dict = {}
        self.current = "main"

    def ledger_for(self, key: str) -> Optional[Ledger]:
        ledger = self.ledgers.get(key)
        return ledger

    @property
    def ledger(self) -> Ledger:
        return self.ledgers[self.current]

    # Fine: settle releases the draft itself if the broadcast is cancelled.
    async def send(self, amount: int, preview: bool) -> Any:
        draft = await self.drafts.api.create_draft(amount)
        if preview:
            await self.ledger.release_draft(draft)
        else:
            await self.ledger.settle(draft)
        return draft

    # Buggy twin: settle_unguarded leaves a cancelled broadcast's draft
    # reserved.
    async def send_unguarded(self, amount: int, preview: bool) -> Any:
        draft = await self.drafts.api.create_draft(amount)
        if preview:
            await self.ledger.release_draft(draft)
        else:
            await self.ledger.settle_unguarded(draft)  # expect: CAN102
        return draft


def open_ledger(name: str) -> Any:
    return {"name": name}


class Till:
    def __init__(self, drafts: Drafts, network: Any, db: Any) -> None:
        self.drafts = drafts
        self.ledger = Ledger(network, db)

    def describe(self, name: str) -> Any:
        ledger = open_ledger(name)
        return ledger

    # Fine: self.ledger is the Ledger made in __init__ (the local of
    # describe is another value); its settle releases a cancelled draft.
    async def ring(self, amount: int, preview: bool) -> Any:
        draft = await self.drafts.api.create_draft(amount)
        if preview:
            await self.ledger.release_draft(draft)
        else:
            await self.ledger.settle(draft)
        return draft

    # Buggy twin.
    async def ring_unguarded(self, amount: int, preview: bool) -> Any:
        draft = await self.drafts.api.create_draft(amount)
        if preview:
            await self.ledger.release_draft(draft)
        else:
            await self.ledger.settle_unguarded(draft)  # expect: CAN102
        return draft
