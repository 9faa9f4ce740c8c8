"""CAN201: a remote create awaited under a timeout, without a shield.

When the timeout fires (or the caller cancels) the request is cancelled on
our side only. The server may still create the sandbox / VM / box, and the
response that carried its id is thrown away: the resource runs until its TTL.
"""

import asyncio
from typing import Any

import anyio
import trio


class SandboxPool:
    def __init__(self, client: Any, session: Any) -> None:
        self._client = client
        self._session = session
        self._cloud = client.cloud
        self._create_timeout = 30.0
        self._sandboxes: dict[str, Any] = {}
        self._tasks: set[asyncio.Task] = set()
        self._reapers: set[asyncio.Task] = set()
        self._ready = asyncio.Event()

    async def _serve(self) -> None:
        await asyncio.sleep(1)

    # Buggy: wait_for cancels the create request on timeout; a sandbox that
    # the server still creates is never seen again.
    async def create_with_deadline(self, template: str) -> Any:
        sandbox = await asyncio.wait_for(  # expect: CAN201
            self._client.sandboxes.create(template=template),
            timeout=self._create_timeout,
        )
        self._sandboxes[sandbox.id] = sandbox
        return sandbox

    # Buggy: the same with anyio's fail_after scope and a launch* call.
    async def launch_with_deadline(self, image: str) -> Any:
        with anyio.fail_after(10):
            instance = await self._cloud.launch_instance(image=image)  # expect: CAN201
        self._sandboxes[instance.id] = instance
        return instance

    # Fine (settled): the create runs as its own task; we wait for it through
    # a shield, and when we are interrupted a tracked reaper task waits for the
    # request to finish and deletes whatever it created.
    async def create_settled(self, template: str) -> Any:
        request = asyncio.ensure_future(self._client.sandboxes.create(template=template))
        try:
            sandbox = await asyncio.wait_for(asyncio.shield(request), self._create_timeout)
        except BaseException:
            self._reap_later(request)
            raise
        self._sandboxes[sandbox.id] = sandbox
        return sandbox

    def _reap_later(self, request: "asyncio.Future[Any]") -> None:
        reaper = asyncio.ensure_future(self._delete_when_created(request))
        self._reapers.add(reaper)
        reaper.add_done_callback(self._reapers.discard)

    async def _delete_when_created(self, request: "asyncio.Future[Any]") -> None:
        try:
            sandbox = await request
        except Exception:
            return
        await sandbox.delete()

    # Fine: a websocket connection under a timeout is not a remote create
    # (nothing outlives the connection on the server).
    async def attach_console(self, url: str) -> Any:
        ws = await asyncio.wait_for(self._session.ws_connect(url), timeout=10)
        return ws

    # Fine: a local transport under a timeout (create_connection is local).
    async def dial(self, host: str, port: int) -> Any:
        loop = asyncio.get_running_loop()
        transport, _proto = await asyncio.wait_for(
            loop.create_connection(asyncio.Protocol, host, port), timeout=5
        )
        return transport

    # Fine: create_task under a timeout is a local task, registered at once.
    async def start_with_deadline(self) -> None:
        async with asyncio.timeout(2):
            t = asyncio.create_task(self._serve())
            self._tasks.add(t)
            await self._ready.wait()


# Buggy: asyncio.timeout around the create.
async def create_box_quickly(api: Any) -> Any:
    async with asyncio.timeout(5):
        box = await api.create_box(size="small")  # expect: CAN201
    return box


# Buggy: trio's fail_after around the create.
async def create_vm_with_deadline(client: Any) -> Any:
    with trio.fail_after(5):
        vm = await client.create_vm(image="debian-12")  # expect: CAN201
    return vm


# Buggy: move_on_after gives up silently -- and drops a cluster that may exist.
async def provision_or_skip(client: Any, name: str) -> Any:
    with trio.move_on_after(30):
        return await client.provision_cluster(name=name)  # expect: CAN201
    return None


class WrappedProvider:
    """A helper of the module that awaits its first argument under
    wait_for is a timeout call too: the create runs under its deadline."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._sandboxes: dict[str, Any] = {}

    async def _bounded(self, awaitable: Any, *, timeout_s: float, op: str) -> Any:
        try:
            return await asyncio.wait_for(awaitable, timeout=timeout_s)
        except asyncio.TimeoutError as e:
            raise TimeoutError(f"{op} timed out") from e

    # Buggy: the helper's wait_for cancels the create request on timeout.
    async def create(self, spec: Any) -> Any:
        sandbox = await self._bounded(self._client.sandboxes.create(spec), timeout_s=30, op="create")  # expect: CAN201
        self._sandboxes[sandbox.id] = sandbox
        return sandbox

    # Fine: the create runs shielded in a task that is reaped if the wait
    # gives up.
    async def create_shielded(self, spec: Any) -> Any:
        task = asyncio.ensure_future(self._client.sandboxes.create(spec))
        try:
            sandbox = await self._bounded(asyncio.shield(task), timeout_s=30, op="create")
        except BaseException:
            task.add_done_callback(lambda t: t.cancelled() or t.exception() or asyncio.ensure_future(t.result().delete()))
            raise
        self._sandboxes[sandbox.id] = sandbox
        return sandbox


class FactoryProvider:
    """A helper that calls the factory it is given and awaits the result
    under wait_for runs the lambda's call under its deadline."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._sandboxes: dict[str, Any] = {}

    async def _op(self, factory: Any, *, timeout_s: float) -> Any:
        for _ in range(3):
            aw = factory()
            try:
                return await asyncio.wait_for(aw, timeout=timeout_s)
            except asyncio.TimeoutError:
                continue
        raise TimeoutError("gave up")

    # Buggy: the create the lambda makes runs under the helper's deadline.
    async def create(self, spec: Any) -> Any:
        sandbox = await self._op(lambda: self._client.sandboxes.create(spec), timeout_s=30)  # expect: CAN201
        self._sandboxes[sandbox.id] = sandbox
        return sandbox

    # Fine: a read under the same helper creates nothing.
    async def info(self, sid: str) -> Any:
        return await self._op(lambda: self._client.sandboxes.get(sid), timeout_s=30)


async def render_with_deadline(url: str) -> str:
    # Fine: `p.chromium.launch(...)` launches a local browser process of the
    # Playwright driver (the catalog's local receivers), and the driver,
    # stopped when the `async with` exits, closes every browser it launched:
    # a launch the timeout cuts short leaves nothing on a server.
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await asyncio.wait_for(p.chromium.launch(headless=True), 30)
        try:
            page = await browser.new_page()
            await page.goto(url)
            return await page.content()
        finally:
            await browser.close()


async def provision_with_deadline(fleet: Any, image: str) -> Any:
    # Buggy twin: a fleet API's launch under the same timeout is a request
    # to a server, which may still start the machine.
    return await asyncio.wait_for(fleet.machines.launch(image=image), 30)  # expect: CAN201
