"""A remote create run as a task behind a shield goes on when the caller
is cancelled; the handler that catches the cancellation can hand the
task's end to a callback (`task.add_done_callback(cleanup)`) whose body
deletes what the create made. That callback owns the task from then on.
A callback that only logs owns nothing.
"""

import asyncio
from typing import Any


class BoxPool:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.live: set = set()

    async def delete_box(self, box_id: str) -> None:
        await self.client.delete(box_id)

    # Fine: a cancelled caller leaves the create to finish, then delete it.
    async def create_box(self, spec: Any) -> Any:
        create = asyncio.create_task(self.client.create(spec))
        try:
            box = await asyncio.shield(create)
        except asyncio.CancelledError:

            def cleanup_created_box(task: asyncio.Task) -> None:
                try:
                    made = task.result()
                except BaseException:
                    return
                asyncio.create_task(self.delete_box(made.id))

            create.add_done_callback(cleanup_created_box)
            raise
        self.live.add(box.id)
        return box

    # Buggy twin: the callback only logs; the box made late is lost.
    async def create_box_logged(self, spec: Any) -> Any:
        create = asyncio.create_task(self.client.create(spec))
        try:
            box = await asyncio.shield(create)  # expect: CAN102
        except asyncio.CancelledError:

            def log_created_box(task: asyncio.Task) -> None:
                print("created after cancel", task)

            create.add_done_callback(log_created_box)
            raise
        self.live.add(box.id)
        return box
