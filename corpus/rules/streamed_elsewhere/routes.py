"""The routes that stream the feeds."""

from typing import Any

from starlette.responses import StreamingResponse

from .feeds import log_events, replay_events


async def tail_logs(request: Any) -> StreamingResponse:
    return StreamingResponse(log_events(request.app.state.source), media_type="text/event-stream")


async def replay_logs(request: Any) -> StreamingResponse:
    return StreamingResponse(replay_events(request.app.state.source), media_type="text/event-stream")
