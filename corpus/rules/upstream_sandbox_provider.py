"""An SDK-style sandbox provider (written for this corpus).

``FlakySandboxProvider.create`` wraps the SDK's ``Sandbox.create`` in
``asyncio.wait_for``: when the deadline passes, the HTTP request is cancelled,
yet the service may still boot the sandbox, and its id is lost with the
response. ``SettledSandboxProvider.create`` is the fixed counterpart.
"""

import asyncio
import logging
from typing import Any

from example_sdk import Sandbox

log = logging.getLogger(__name__)


class FlakySandboxProvider:
    def __init__(self, api_key: str, timeout: float = 60.0) -> None:
        self._api_key = api_key
        self._timeout = timeout
        self._live: dict[str, Sandbox] = {}

    # Buggy: a remote create under wait_for, without a shield.
    async def create(self, template: str) -> Sandbox:
        sandbox = await asyncio.wait_for(  # expect: CAN201
            Sandbox.create(template=template, api_key=self._api_key),
            timeout=self._timeout,
        )
        self._live[sandbox.sandbox_id] = sandbox
        return sandbox


class SettledSandboxProvider:
    def __init__(self, api_key: str, timeout: float = 60.0) -> None:
        self._api_key = api_key
        self._timeout = timeout
        self._live: dict[str, Sandbox] = {}
        self._reapers: set[asyncio.Task] = set()

    # Fine: the request runs as its own task and is awaited through a shield;
    # if the deadline passes or we are cancelled, a tracked reaper waits for
    # the request to land and kills the sandbox it produced.
    async def create(self, template: str) -> Sandbox:
        request = asyncio.ensure_future(Sandbox.create(template=template, api_key=self._api_key))
        try:
            sandbox = await asyncio.wait_for(asyncio.shield(request), self._timeout)
        except BaseException:
            reaper = asyncio.ensure_future(self._kill_when_created(request))
            self._reapers.add(reaper)
            reaper.add_done_callback(self._reapers.discard)
            raise
        self._live[sandbox.sandbox_id] = sandbox
        return sandbox

    async def _kill_when_created(self, request: "asyncio.Future[Sandbox]") -> None:
        try:
            sandbox = await request
        except Exception as exc:
            log.info("sandbox create failed late: %r", exc)
            return
        await sandbox.kill()
