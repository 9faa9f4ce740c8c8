"""An event stream a streaming response drives.

`StreamingResponse(event_stream(run))` runs the generator inside a cancel
scope of the server's, which it cancels when the client goes away; that
cancellation is delivered again at each await until the generator leaves,
so `except CancelledError: return` ends the stream, as meant. The same
generator iterated by a coroutine of the module loses that coroutine's
cancellation. A generator defined inside the endpoint that hands it to the
response (`def heartbeat(): async def iterator(): ...; return
StreamingResponse(iterator())`) is read within that endpoint, also when a
local holds it or one of two picked by a conditional.
"""

import asyncio
from typing import Any, AsyncIterator

from fastapi.responses import StreamingResponse


# Fine: only ever handed to the streaming response.
async def event_stream(run: Any) -> AsyncIterator[str]:
    try:
        async for event in run.events():
            yield f"data: {event}\n\n"
    except asyncio.CancelledError:
        return


async def stream_run(run: Any) -> StreamingResponse:
    return StreamingResponse(event_stream(run), media_type="text/event-stream")


# Buggy: also drained by a plain coroutine, whose cancel the generator eats.
async def progress_stream(run: Any) -> AsyncIterator[str]:
    try:
        async for event in run.events():
            yield f"data: {event}\n\n"
    except asyncio.CancelledError:  # expect: CAN401
        return


async def stream_progress(run: Any) -> StreamingResponse:
    return StreamingResponse(progress_stream(run), media_type="text/event-stream")


async def log_progress(run: Any) -> None:
    async for line in progress_stream(run):
        print(line)


# Fine: a generator defined in the endpoint that hands it to the response
# (the usual FastAPI shape), counted within that endpoint.
def heartbeat(app: Any, session: str) -> StreamingResponse:
    async def iterator() -> AsyncIterator[str]:
        while True:
            try:
                yield "data: ALIVE\n\n"
                await asyncio.sleep(15)
            except asyncio.CancelledError:
                app.sessions.pop(session, None)
                return

    return StreamingResponse(iterator(), media_type="text/event-stream")


# Buggy: the nested generator is also drained in the endpoint itself.
async def replay(run: Any) -> StreamingResponse:
    async def iterator() -> AsyncIterator[str]:
        try:
            async for event in run.events():
                yield f"data: {event}\n\n"
        except asyncio.CancelledError:  # expect: CAN401
            return

    async for first in iterator():
        print("first event", first)
        break
    return StreamingResponse(iterator(), media_type="text/event-stream")


def keep_context(gen: AsyncIterator[str], names: Any) -> AsyncIterator[str]:
    async def wrapped() -> AsyncIterator[str]:
        async for item in gen:
            yield item

    return wrapped()


# Fine: bound to a local through a pass-through wrapper, then handed to the
# response (`gen = keep_context(sse_events(run), ...)`): the wrapper
# iterates it inside the response's scope.
async def sse_events(run: Any) -> AsyncIterator[str]:
    try:
        async for event in run.events():
            yield f"data: {event}\n\n"
    except asyncio.CancelledError:
        return


async def stream_sse(run: Any) -> StreamingResponse:
    gen = keep_context(sse_events(run), ["trace"])
    return StreamingResponse(gen, media_type="text/event-stream")


# Buggy: the wrapped generator is also replayed by a plain coroutine.
async def audit_events(run: Any) -> AsyncIterator[str]:
    try:
        async for event in run.events():
            yield f"data: {event}\n\n"
    except asyncio.CancelledError:  # expect: CAN401
        return


async def stream_audit(run: Any) -> StreamingResponse:
    gen = keep_context(audit_events(run), ["trace"])
    return StreamingResponse(gen, media_type="text/event-stream")


async def archive_audit(run: Any, sink: Any) -> None:
    async for line in keep_context(audit_events(run), []):
        await sink.write(line)


# Fine: one of two generators defined in the endpoint, picked by a
# conditional bound to a local and handed to the response.
async def completions(client: Any, stream: bool) -> StreamingResponse:
    async def chunks() -> AsyncIterator[str]:
        try:
            async for part in client.stream():
                yield part
        except BaseException as e:
            yield f"error: {e}"

    async def whole() -> AsyncIterator[str]:
        try:
            yield await client.complete()
        except BaseException as e:
            yield f"error: {e}"

    body = chunks() if stream else whole()
    return StreamingResponse(body, media_type="text/event-stream")


# Buggy: the same pick, but the whole answer is also drained in the
# endpoint itself, in its own task.
async def answer(client: Any, stream: bool) -> StreamingResponse:
    async def chunks() -> AsyncIterator[str]:
        try:
            async for part in client.stream():
                yield part
        except BaseException as e:
            yield f"error: {e}"

    async def whole() -> AsyncIterator[str]:
        try:
            yield await client.complete()
        except BaseException as e:  # expect: CAN401
            yield f"error: {e}"

    if not stream:
        async for text in whole():
            return text
    body = chunks() if stream else whole()
    return StreamingResponse(body, media_type="text/event-stream")
