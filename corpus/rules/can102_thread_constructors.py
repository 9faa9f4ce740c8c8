"""What a class's alternative constructor makes in a worker thread.

`state = await loop.run_in_executor(None, RevocationState.create, ...)`
runs a class's own `create` in a thread: known by its name alone, that
builds an object in this process, which the collector frees, not something
made elsewhere that must be deleted (neither CAN102 nor CAN203 reads it
as a resource). A client's `create_volume` run the same way makes a
volume on the service: it stays a resource for both.
"""

import asyncio
from typing import Any

from credlib import RevocationState


class Prover:
    def __init__(self, ledger: Any, storage: Any) -> None:
        self.ledger = ledger
        self.storage = storage

    # Fine: an object built in this process by the class's constructor.
    async def revocation_states(self, requests: list) -> dict:
        loop = asyncio.get_running_loop()
        states = {}
        for req in requests:
            state = await loop.run_in_executor(None, RevocationState.create, req.definition, req.delta)
            states[req.id] = state
            await self.ledger.note(req.id)
        return states

    # Buggy: the client's create makes a volume on the service.
    async def scratch_volume(self, size: int) -> Any:
        loop = asyncio.get_running_loop()
        volume = await loop.run_in_executor(None, self.storage.create_volume, size)  # expect: CAN203
        await self.ledger.note(volume.id)  # expect: CAN102
        return volume


# Buggy: `Path(...).open` opens a file on what the call made, not a
# class's constructor.
async def append_log(path: str, line: bytes, flush: Any) -> None:
    from pathlib import Path

    log = await asyncio.to_thread(Path(path).open, "ab")  # expect: CAN203
    try:
        log.write(line)
    finally:
        log.close()
    await flush()
