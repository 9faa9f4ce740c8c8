"""An object a module function builds and returns, read as its class.

`runner = _build_runner(ledger)` where `_build_runner` (not annotated)
returns `LedgerRunner(ledger)` on its one path: `runner.start_ledger_run(...)`
is that class's method, and what the tree says of it decides what it hands
back (here a record the ledger keeps, with the task in it, annotated as a
data class of the tree). A builder that returns objects of two classes
names none, and the call reads by its name (`start_*`: a session, by the
naming heuristic, handed on where a response is built of it).
"""

import asyncio
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RunRecord:
    run_id: str
    status: str = "running"
    task: Any = None
    result: Any = None
    first_outcome: asyncio.Event = field(default_factory=asyncio.Event)


class RunLedger:
    def __init__(self) -> None:
        self._records: dict = {}

    async def create_record(self) -> RunRecord:
        record = RunRecord(run_id=str(len(self._records)))
        async with asyncio.Lock():
            self._records[record.run_id] = record
        return record


class LedgerRunner:
    def __init__(self, ledger: RunLedger) -> None:
        self._ledger = ledger

    async def _work(self, record: RunRecord, payload: Any) -> None:
        record.result = payload
        record.first_outcome.set()

    async def start_ledger_run(self, payload: Any) -> RunRecord:
        record = await self._ledger.create_record()
        record.task = asyncio.create_task(self._work(record, payload))
        return record


class QuickRunner(LedgerRunner):
    pass


def build_accepted(record: RunRecord) -> Any:
    return {"run_id": record.run_id, "status": record.status}


def _build_runner(ledger: RunLedger):
    return LedgerRunner(ledger)


def _build_any_runner(ledger: RunLedger, quick: bool):
    if quick:
        return QuickRunner(ledger)
    return LedgerRunner(ledger)


# Fine: the ledger keeps the record start_ledger_run hands back.
async def handle(ledger: RunLedger, payload: Any) -> Any:
    runner = _build_runner(ledger)
    record = await runner.start_ledger_run(payload)
    await record.first_outcome.wait()
    if record.status == "failed":
        return None
    if record.status == "waiting":
        return build_accepted(record)
    return record.result


# Buggy twin (as the tool reads it): the builder names no one class, so
# the call reads as a maker of what it starts.
async def handle_any(ledger: RunLedger, payload: Any, quick: bool) -> Any:
    runner = _build_any_runner(ledger, quick)
    record = await runner.start_ledger_run(payload)
    await record.first_outcome.wait()  # expect: CAN102
    if record.status == "failed":
        return None
    if record.status == "waiting":
        return build_accepted(record)
    return record.result
