from typing import Any

from .links import PipeLink


async def relay(reader: Any, sink: Any) -> None:
    link = PipeLink(reader)
    while True:
        frame = await link.receive()
        if frame is None:
            return
        await sink.send(frame)
