"""A create whose noun is plural makes a batch, not one handle.

The naming heuristic reads `sandbox = await client.create_sandbox(...)` as
a remote object the function owns until something takes it. A name whose
noun is plural (`create_tools_from_connectors`, `create_messages`) makes a
list of things: the name says nothing of a resource, and the value is a
plain call result, a resource only if the function releases it somewhere.
A singular noun before the preposition (`create_session_for_user`) is read
as before.
"""

from typing import Any


class WidgetAdapter:
    def __init__(self, api: Any, registry: dict) -> None:
        self.api = api
        self.registry = registry

    # Fine: a list of in-memory wrappers, stored once built.
    async def load(self, name: str, sources: list) -> None:
        widgets = await self.api.create_widgets_from_sources(sources)
        await self.api.log_loaded(name)
        self.registry[name] = widgets

    # Buggy: one remote session, not yet stored when the log call runs.
    async def open_one(self, name: str, user: str) -> None:
        session = await self.api.create_session_for_user(user)
        await self.api.log_loaded(name)  # expect: CAN102
        self.registry[name] = session
