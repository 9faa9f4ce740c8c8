"""A studio session that runs the mixer's loops as tasks of its own."""

import asyncio
from typing import Any


async def run_session(app: Any, ws: Any) -> None:
    frames: asyncio.Queue = asyncio.Queue()
    tasks = [
        asyncio.create_task(app.state.mixer.mix_frames(frames)),
        asyncio.create_task(app.state.mixer.mix_replay(frames)),
        asyncio.create_task(ws.pump(frames)),
    ]
    asyncio.create_task(app.state.mixer.mix_preview(frames))
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()


async def replay(app: Any, frames: asyncio.Queue) -> None:
    await app.state.mixer.mix_replay(frames)
