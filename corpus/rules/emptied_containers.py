"""A container tested empty holds nothing that was put into it.

A crew runs its tasks in order: an asynchronous one is started and kept in
`pending`; before the next synchronous one, everything pending is awaited
by a helper (which settles every element of the list it is handed) and the
list is cleared. At the synchronous task's await, either the helper ran, or
`pending` was empty: no task started before is still running unowned. When
the flush depends on something else (a count), started tasks may still be
running there.
"""

import asyncio


class Crew:
    # Fine: pending is flushed, or found empty, before each await.
    async def run_all(self, tasks):
        pending = []
        outputs = []
        for task in tasks:
            if task.async_execution:
                started = asyncio.create_task(task.run())
                pending.append((task, started))
            else:
                if pending:
                    outputs.extend(await self._process(pending))
                    pending.clear()
                outputs.append(await task.run())
        if pending:
            outputs.extend(await self._process(pending))
        return outputs

    # Buggy: a batch is flushed only when it is large; a smaller one is
    # still running, unowned, when the synchronous task is awaited.
    async def run_batched(self, tasks, flush_at=8):
        batch = []
        results = []
        for task in tasks:
            if not task.async_execution:
                if len(batch) > flush_at:
                    results += await self._process(batch)
                    batch = []
                results.append(await task.run())  # expect: CAN102
                continue
            job = asyncio.create_task(task.run())
            batch.append((task, job))
        results += await self._process(batch)
        return results

    async def _process(self, pending):
        outs = []
        for task, started in pending:
            outs.append(await started)
        return outs
