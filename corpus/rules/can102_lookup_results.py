"""What a lookup finds is its keeper's, not the caller's.

`application, page = self.inspector.find_page_id(page_id)`: a call whose
name starts with a lookup verb (catalog lookup-verb: find, lookup, search,
describe, list, read, fetch, ...) finds an existing object, which whoever
keeps it owns; releasing it on an error path does not make the caller its
owner. `get` is no such verb here: factories and pools hand out what the
caller must give back (`session = pool.get_session()`). Nor is an
exception object made in a handler (`e = WrappedError(exception=e)`) a
resource, whatever its methods are named.
"""

import asyncio
from typing import Any


class Debugger:
    def __init__(self, inspector: Any, pool: Any) -> None:
        self.inspector = inspector
        self.pool = pool

    # Fine: the page belongs to the inspector that lists it.
    async def attach(self, page_id: str) -> None:
        application, page = self.inspector.find_page_id(page_id)
        try:
            await self.inspector.setup_session(application, page)
        except Exception:
            page.close()
            raise

    # Buggy twin: the pool hands the session out; the caller gives it back
    # only on an error, not on a cancellation.
    async def run(self, query: str) -> Any:
        session = self.pool.get_session()
        try:
            return await session.execute(query)  # expect: CAN101
        except Exception:
            session.close()
            raise


class WrappedError(Exception):
    def __init__(self, exception: Exception) -> None:
        super().__init__(str(exception))

    async def close_message(self, ws: Any) -> None:
        await ws.send_json({"error": str(self)})


class Chat:
    def __init__(self, ws: Any, api: Any) -> None:
        self.ws = ws
        self.api = api

    # Fine: the error wrapped for the client is an exception object,
    # whatever its close_message does.
    async def handle(self, text: str) -> None:
        try:
            await self.api.ask(text)
        except Exception as e:
            e = WrappedError(exception=e)
            await self.ws.send_json({"status": "failed"})
            await e.close_message(self.ws)


class Sessions:
    def __init__(self, pool: Any) -> None:
        self.pool = pool

    # Buggy: a find-or-create may make the session it hands back, and
    # closes it only on an error.
    async def use(self, key: str) -> Any:
        session = await self.pool.find_or_create_session(key)
        try:
            return await session.run()  # expect: CAN101
        except Exception:
            await session.close()
            raise


class Clicker:
    def __init__(self, contexts: Any) -> None:
        self.contexts = contexts

    # Fine: the context in effect now is borrowed from its contextvar.
    async def click(self, page: Any) -> None:
        context = self.contexts.current()
        try:
            await page.click("#go")
        except Exception:
            context.close()
            raise
