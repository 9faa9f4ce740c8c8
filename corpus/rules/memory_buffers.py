"""An in-memory buffer owns nothing a cancellation could leak.

A stream handler collects the deltas of a model's reply in `io.StringIO`
buffers and closes them when done; cancelled while it reads the stream, it
leaves two buffers the collector frees. The twin spools to a temporary file
on disk, which stays behind until something deletes it.
"""

import io
import tempfile
from typing import Any


class DeltaCollector:
    # Fine: StringIO and BytesIO hold memory only.
    async def collect(self, stream: Any) -> str:
        text = io.StringIO()
        raw = io.BytesIO()
        try:
            async for chunk in stream:
                text.write(chunk.text)
                raw.write(chunk.data)
            return text.getvalue()
        except Exception:
            text.close()
            raw.close()
            raise

    async def spool(self, stream: Any) -> str:
        spool = tempfile.NamedTemporaryFile(delete=False)
        try:
            async for chunk in stream:  # expect: CAN101
                spool.write(chunk.data)
            return spool.name
        except Exception:
            spool.close()
            raise
