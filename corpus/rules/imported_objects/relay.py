"""Forwards incoming messages, each in a task nobody keeps."""

import asyncio
from typing import Any

import vendorlib  # (a library, not part of the tree)

from .book import ledger


async def forward(msg: Any) -> None:
    await msg.send()
    await ledger.record_delivery(msg.key)
    await ledger.settle_delivery(msg.key)


def on_message(msg: Any) -> None:
    asyncio.create_task(forward(msg))


async def settle_all(keys: list) -> None:
    for key in keys:
        await asyncio.wait_for(ledger.settle_delivery(key), timeout=5)


# A library's object of the same method name is not the ledger: this call
# under a timeout says nothing of `Ledger.record_delivery`.
async def replay(keys: list) -> None:
    for key in keys:
        await asyncio.wait_for(vendorlib.store.record_delivery(key), timeout=5)
