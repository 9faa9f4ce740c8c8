"""Values the cancellation does not strand: where it is delivered into the
value itself (a generator's step, its own setup), where a call takes the
value over (start_tls), where an enter cannot suspend, where the value is
stored (setattr) or only borrowed (a helper returns what self keeps), and a
release that raised. Each has a twin with a real window.
"""

import asyncio
import contextlib
from typing import Any, AsyncGenerator


async def events_of(url: str) -> AsyncGenerator[dict, None]:
    async with open_stream(url) as stream:  # noqa
        async for item in stream:
            yield item


async def first(events: AsyncGenerator[dict, None]) -> dict:
    return await events.__anext__()


def open_stream(url: str) -> Any:
    raise NotImplementedError


class Client:
    def __init__(self) -> None:
        self._ws: Any = None
        self._entries: dict[str, Any] = {}

    async def _connect_shared(self) -> Any:
        if self._ws is None:
            self._ws = await self._dial()
        return self._ws

    async def _dial(self) -> Any:
        await asyncio.sleep(0)
        return object()

    # Fine: cancelled while waiting for the first event, the generator
    # receives the cancellation and closes its own stream.
    async def start(self, url: str) -> dict:
        events = events_of(url)
        try:
            head = await first(events)
        except Exception:
            await events.aclose()
            raise
        self._entries[url] = events
        return head

    # Buggy twin: the first await is elsewhere; the generator is not
    # running when the cancellation comes.
    async def start_late(self, url: str) -> dict:
        events = events_of(url)
        try:
            await self.step()  # expect: CAN101
            head = await first(events)
        except Exception:
            await events.aclose()
            raise
        self._entries[url] = events
        return head

    # Fine: start_tls takes the transport over and closes it if it fails.
    async def upgrade(self, transport: Any, proto: Any, ctx: Any) -> None:
        loop = asyncio.get_running_loop()
        raw, _ = await loop.create_connection(lambda: proto, "example.invalid", 443)
        tls = await loop.start_tls(raw, proto, ctx)
        self._entries["tls"] = tls

    # Fine: entering an exit stack does not suspend.
    async def stacked(self, url: str) -> None:
        task = asyncio.create_task(self.step())
        async with contextlib.AsyncExitStack() as stack:
            stack.push_async_callback(self.cancel_task, task)
            await self.step()

    # Buggy twin: a lock's enter can suspend.
    async def locked(self, lock: asyncio.Lock) -> None:
        task = asyncio.create_task(self.step())
        async with lock:  # expect: CAN102
            self._entries["t"] = task

    # Fine: setattr stores the task on the entry the caller owns.
    async def attach(self, entry: Any, name: str) -> None:
        task = asyncio.create_task(self.step())
        setattr(entry, name, task)
        await self.step()

    def _hang_on_parent(self, name: str, child: Any) -> None:
        parent = self._parent
        setattr(parent, name, child)

    def _hang_on_scratch(self, name: str, child: Any) -> None:
        scratch = type("Scratch", (), {})()
        setattr(scratch, name, child)

    # Fine: the helper's setattr on a local view of an object self holds
    # (`parent = self._parent`) stores the task with self, as `parent.x =
    # task` would: the helper takes it.
    async def attach_to_parent(self, name: str) -> None:
        task = asyncio.create_task(self.step())
        self._hang_on_parent(name, task)
        await self.step()
        self._tasks.add(task)

    # Buggy twin: the helper's setattr is on an object it made itself, which
    # nobody keeps; the task is still this function's until the end.
    async def attach_to_scratch(self, name: str) -> None:
        task = asyncio.create_task(self.step())
        self._hang_on_scratch(name, task)
        await self.step()  # expect: CAN102
        self._tasks.add(task)

    # Fine: the helper returns the connection self keeps.
    async def borrowed(self) -> None:
        ws = await self._connect_shared()
        await self.step()
        del ws

    # Fine: a close that raised still counts as the release.
    async def closed_anyway(self, url: str) -> None:
        events = events_of(url)
        try:
            await self.step()
        except BaseException:
            try:
                await events.aclose()
            except Exception:
                pass
            await self.report()
            raise
        self._entries[url] = events

    async def step(self) -> None:
        await asyncio.sleep(0)

    async def report(self) -> None:
        await asyncio.sleep(0)

    async def cancel_task(self, task: "asyncio.Task[None]") -> None:
        task.cancel()
