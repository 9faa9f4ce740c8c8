"""A remote create in a loop is one finding, however often the loop is read.

The walk goes round a loop until what it knows settles, so the same create
is met on several passes; its timeout window is reported once. (The boxes
kept in a local list until the loop ends are a window of their own at each
step of the `async for`.)
"""

import asyncio
from typing import Any, List


async def make_boxes(client: Any, names: Any) -> List[Any]:
    boxes: List[Any] = []
    async for name in names:  # expect: CAN102
        if boxes:
            await client.delete_sandbox(boxes[-1].id)
        box = await asyncio.wait_for(client.create_sandbox(name=name), 30)  # expect: CAN201
        boxes.append(box)
    return boxes
