"""A file the function never closes, on any path, is not left by a cancellation.

``out = tempfile.NamedTemporaryFile(delete=False)`` whose name is handed to
a tool and whose handle is closed nowhere (no close, no ``with``, not
stored, not returned): the normal path drops the handle exactly as a
cancellation would (the interpreter closes it when the frame goes), so an
await between the opening and the end is no window of it. A file that the
normal path does close is a window until then.
"""

import asyncio
import tempfile
from typing import Any, List


async def concat_chunks(chunks: List[str], cache: str) -> str:
    out = tempfile.NamedTemporaryFile(delete=False, suffix=".mp4", dir=cache)
    proc = await asyncio.create_subprocess_exec("ffmpeg", "-i", "|".join(chunks), "-y", out.name)
    try:
        await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
    return out.name


async def concat_chunks_closed(chunks: List[str], cache: str, tool: Any) -> str:
    out = tempfile.NamedTemporaryFile(delete=False, suffix=".mp4", dir=cache)
    await tool.concat(chunks, out.name)  # expect: CAN102
    out.close()
    return out.name
