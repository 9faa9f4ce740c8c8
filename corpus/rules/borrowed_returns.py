"""A helper that hands back what self keeps (`return self._ws`) lends it: the
caller does not own it, whatever its own cleanup does with it. Through a
helper of the module that awaits its argument under a timeout, too.
"""

import asyncio
from typing import Any


class Streamer:
    def __init__(self, session: Any, url: str) -> None:
        self._session = session
        self._url = url
        self._ws: Any = None

    async def _bounded(self, awaitable: Any, timeout_s: float) -> Any:
        return await asyncio.wait_for(awaitable, timeout=timeout_s)

    async def _ensure_ws(self) -> Any:
        if self._ws is None:
            self._ws = await self._session.ws_connect(self._url)
        return self._ws

    async def _open_ws(self) -> Any:
        return await self._session.ws_connect(self._url)

    def _abort(self, ws: Any) -> None:
        ws.close()

    # Fine: the socket is self._ws; the abort on errors is a courtesy.
    async def send(self, frame: bytes) -> None:
        ws = await self._bounded(self._ensure_ws(), 5)
        try:
            await ws.send_bytes(frame)
        except Exception:
            self._abort(ws)
            raise

    # Buggy twin: _open_ws hands over a fresh socket nothing else holds.
    async def send_once(self, frame: bytes) -> None:
        ws = await self._bounded(self._open_ws(), 5)
        try:
            await ws.send_bytes(frame)  # expect: CAN101
        except Exception:
            self._abort(ws)
            raise
        await ws.close()


class Model:
    def __init__(self, url: str) -> None:
        self._url = url
        self._client: Any = None

    async def request(self, messages: list) -> Any:
        return await asyncio.sleep(0, messages)

    async def cancel_job(self, message: Any) -> None: ...

    async def aclose(self) -> None:
        await self._client.aclose()


class Fallback:
    def __init__(self, models: list, url: str) -> None:
        self.models = models
        self._url = url

    def _pinned(self, message: Any) -> Model | None:
        if model_id := message.model_id:
            return next((m for m in self.models if m.model_id == model_id), None)
        return None

    def _continuation(self, messages: list) -> Model | None:
        if not messages:
            return None
        return self._pinned(messages[-1])

    def _spare(self) -> Model:
        return Model(self._url)

    # Fine: the pinned model is one of self.models, handed back through two
    # lookups; cancelling its job on a failure is no release of it.
    async def request(self, messages: list) -> Any:
        if pinned := self._continuation(messages):
            try:
                return await pinned.request(messages)
            except Exception:
                await pinned.cancel_job(messages[-1])
                raise
        return None

    # Leaks: the spare model is made for this call; only `except Exception`
    # closes it.
    async def request_spare(self, messages: list) -> Any:
        spare = self._spare()
        try:
            result = await spare.request(messages)  # expect: CAN101
        except Exception:
            await spare.aclose()
            raise
        await spare.aclose()
        return result


class Conn:
    def __init__(self, host: str) -> None:
        self.host = host
        self._sock: Any = None

    async def write(self, data: bytes) -> None:
        await asyncio.sleep(0, data)

    async def close(self) -> None:
        self._sock.close()


class Pool:
    def __init__(self, host: str) -> None:
        self._host = host
        self._current: Any = None

    def current(self) -> Conn:
        return self._current

    def open_new(self) -> Conn:
        return Conn(self._host)


class Client:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    # Fine: `self._pool` is the Pool its constructor's parameter is annotated
    # with, and `current()` hands back the connection the pool keeps.
    async def send(self, data: bytes) -> None:
        conn = self._pool.current()
        try:
            await conn.write(data)
        except Exception:
            await conn.close()
            raise

    # Leaks: `open_new()` makes a connection for this call; only `except
    # Exception` closes it.
    async def send_fresh(self, data: bytes) -> None:
        conn = self._pool.open_new()
        try:
            await conn.write(data)  # expect: CAN101
        except Exception:
            await conn.close()
            raise
        await conn.close()
