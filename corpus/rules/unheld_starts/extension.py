"""An extension that starts recognizer clients as tasks."""

import asyncio
from typing import Optional

from .recognizers import BatchRecognizer, StreamingRecognizer


class Extension:
    def __init__(self) -> None:
        self.streaming = StreamingRecognizer("asr")
        self.batch = BatchRecognizer("asr-batch")
        self._batch_task: Optional[asyncio.Task] = None
        self._warm: Optional[asyncio.Task] = None

    def on_start(self) -> None:
        # dropped: nothing holds these tasks
        asyncio.create_task(self.streaming.start())
        asyncio.create_task(self.streaming.listen())
        asyncio.ensure_future(self.batch.decode())
        # held only where it is tested
        self._warm = asyncio.create_task(self.streaming.warm_up())
        # held and cancelled
        self._batch_task = asyncio.create_task(self.batch.run())

    def is_warm(self) -> bool:
        return self._warm is not None and self._warm.done()

    def on_stop(self) -> None:
        if self._batch_task is not None:
            self._batch_task.cancel()

    async def transcribe(self) -> bytes:
        return await self.batch.decode()
