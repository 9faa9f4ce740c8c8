import asyncio

from .workers import Worker


class Runner:
    def __init__(self):
        self._tasks = set()

    def start(self, worker: Worker, params):
        task = asyncio.create_task(self._run_worker(worker, params))
        self._tasks.add(task)

    def start_all(self, workers: list[Worker]):
        task = asyncio.create_task(self._step_all(workers))
        self._tasks.add(task)

    async def _run_worker(self, worker: Worker, params):
        await worker.run(params)

    async def _step_all(self, workers: list[Worker]):
        for worker in workers:
            await worker.step()

    async def health(self, worker: Worker):
        ok = await worker.check()
        print(worker.name, "ok" if ok else "down")

    async def stop(self):
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
