"""Coroutines a framework runs: handlers registered by a decorator.

`@sio.on("edit_message")` registers the handler with a server object that
runs each event as a task of its own; `@app.command()` makes a CLI command
the runner calls. Nothing in the code awaits them: a cancellation they end
on quietly is the end of that run, as for a task's own frame. A coroutine
wrapped by a decorator for its callers (`@retry(...)`) and awaited by them
swallows their cancellation.
"""

import asyncio

import socketio
import typer
from tenacity import retry

sio = socketio.AsyncServer(async_mode="asgi")
app = typer.Typer()


@sio.on("edit_message")
async def edit_message(sid, payload):
    try:
        await sio.emit("edited", payload, to=sid)
    except asyncio.CancelledError:
        pass


@app.command()
async def start(name: str):
    worker = await connect_worker(name)
    try:
        await worker.run_forever()
    except asyncio.CancelledError:
        print("worker stopped")


async def connect_worker(name):
    await asyncio.sleep(0)
    return name


@retry()
async def fetch_status(client):
    try:
        return await client.status()
    except asyncio.CancelledError:  # expect: CAN401
        return None


async def report(client):
    status = await fetch_status(client)
    print(status)


from mode import Service
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


class Fetcher(Service):
    # Fine: the service runs its @Service.task methods as tasks of its own
    # and cancels them when it stops.
    @Service.task
    async def _fetch_forever(self) -> None:
        try:
            await self.app.consumer.drain(self)
        except asyncio.CancelledError:
            self.log.info("fetcher stopped")

    # Buggy: a span wraps the call for the caller, who awaits it.
    @tracer.start_as_current_span("commit")
    async def _commit(self) -> None:
        try:
            await self.app.consumer.commit()
        except asyncio.CancelledError:  # expect: CAN401
            self.log.info("commit interrupted")

    async def stop_soon(self) -> None:
        await self._commit()
