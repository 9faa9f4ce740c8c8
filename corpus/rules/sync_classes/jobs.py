"""Records of a data-model base defined in a module the prefilter skips,
made by a method the class inherits from its library base."""

import asyncio
from typing import Any

from corpus.rules.sync_classes.legacy.bases import IdModelBase as LegacyIdModelBase
from corpus.rules.sync_classes.schemas.bases import IdModelBase


class Job(IdModelBase):
    name: str = ""

    async def describe(self) -> str:
        return self.name


class Runner:
    def __init__(self) -> None:
        self._slots: set = set()

    def _take_slot(self, job_id: str) -> bool:
        if job_id in self._slots:
            return False
        self._slots.add(job_id)
        return True

    def _release_slot(self, job_id: str) -> None:
        self._slots.discard(job_id)

    # Fine: the job is a record parsed from the bundle; the slot released in
    # the finally is taken under its id inside the context, not the job.
    async def run_bundle(self, bundle: dict, context: Any) -> None:
        job = Job.model_validate(bundle["job"])
        async with context:
            if not self._take_slot(job.id):
                return
            try:
                await context.submit(job)
            finally:
                self._release_slot(job.id)


class Probe(LegacyIdModelBase):
    async def ping(self) -> None:
        await asyncio.sleep(0)


# Buggy: a Probe owns the socket its legacy base opens; only `except
# Exception` closes it.
async def probe(host: str) -> Probe:
    p = Probe(host)
    try:
        await p.ping()  # expect: CAN101
    except Exception:
        p.close()
        raise
    return p
