"""Coroutines that run as tasks of their own, however they are started.

`asyncio.gather(a(), b())` wraps each coroutine in a task: a child that
catches its own cancellation and ends does not hide the gatherer's, which
gather raises anyway. A coroutine bound to a name first and then handed to
a spawner (`wrapped = self._run_event(...)`, `loop.create_task(wrapped)`),
or handed to the object's own spawner (`self._create_task(coro)`), is the
outermost frame of its task too, and so is one put in a list bound once and
gathered from it (`calls = [_call(h) for h in hooks]`, `gather(*calls)`),
unless the module hands the function on as a value (`shutdown_one =
_shutdown_one`), to be awaited in place by code it does not see. The same
coroutine awaited directly runs in its caller's task, where a swallowed
cancellation is the caller's.
"""

import asyncio


class Relay:
    def __init__(self, source, sink, create_task):
        self._source = source
        self._sink = sink
        self._create_task = create_task
        self._monitor = None

    async def _pump_audio(self):
        try:
            async for frame in self._source.audio():
                await self._sink.write(frame)
        except asyncio.CancelledError:
            pass

    async def _pump_text(self):
        try:
            async for line in self._source.text():
                await self._sink.write_text(line)
        except asyncio.CancelledError:
            return

    async def run(self):
        await asyncio.gather(self._pump_audio(), self._pump_text(), return_exceptions=True)

    # Fine: started only through the spawner the owner handed in.
    async def _watch(self):
        try:
            while True:
                await asyncio.sleep(5)
                await self._sink.ping()
        except asyncio.CancelledError:
            pass

    def start_monitor(self):
        self._monitor = self._create_task(self._watch())


class Dispatcher:
    def __init__(self, loop):
        self.loop = loop

    # Fine: each event runs in a task of its own that nobody awaits.
    async def _run_event(self, coro, *args):
        try:
            await coro(*args)
        except asyncio.CancelledError:
            pass

    def schedule(self, coro, *args):
        wrapped = self._run_event(coro, *args)
        return self.loop.create_task(wrapped)


class Fetcher:
    def __init__(self, client):
        self._client = client

    async def _fetch_one(self, url):
        try:
            return await self._client.get(url)
        except asyncio.CancelledError:  # expect: CAN401
            return None

    async def fetch_all(self, urls):
        return await asyncio.gather(*[self._fetch_one(u) for u in urls])

    # The same helper awaited directly: here it swallows its caller's cancel.
    async def fetch_first(self, urls):
        return await self._fetch_one(urls[0])


class HookBus:
    def __init__(self, hooks):
        self._hooks = hooks

    # Fine: each wrapper runs as a task of gather's, built into a list first.
    async def emit(self, event):
        async def _call(hook):
            try:
                await hook(event)
            except BaseException:
                print("hook failed", hook)

        calls = [_call(h) for h in self._hooks]
        await asyncio.gather(*calls)


async def _guarded_listener(listener, payload):
    try:
        await listener(payload)
    except:  # noqa: E722  # expect: CAN401
        return False
    return True


class ListenerHub:
    def __init__(self, listeners):
        self._listeners = listeners

    async def notify_all(self, payload):
        pending = [_guarded_listener(cb, payload) for cb in self._listeners]
        return await asyncio.gather(*pending)

    # The same wrapper awaited in place: the caller's cancel ends there.
    async def notify_first(self, payload):
        return await _guarded_listener(self._listeners[0], payload)


class KernelPool:
    def __init__(self, pending):
        self._pending = pending

    async def _shutdown_one(self, kid):
        try:
            await self._pending[kid]
        except asyncio.CancelledError:  # expect: CAN401
            pass

    # Handed out under a public name: callers outside this module may await
    # it in place, where the cancel it swallows is theirs.
    shutdown_one = _shutdown_one

    async def shutdown_all(self, kids):
        await asyncio.gather(*[self._shutdown_one(k) for k in kids])


class ContainerScanner:
    def __init__(self, docker):
        self._docker = docker

    # Fine: each per-container coroutine is appended to a list bound once
    # to [] and gathered from it, so it runs as a task of gather's.
    async def scan(self, ids):
        async def _inspect(cid):
            try:
                return await self._docker.inspect(cid)
            except asyncio.CancelledError:
                return None

        fetches = []
        for cid in ids:
            fetches.append(_inspect(cid))
        return await asyncio.gather(*fetches, return_exceptions=True)

    # Buggy: the list is also filled another way (`+=`), so what it holds
    # is not known to be only gathered coroutines; the helper is awaited in
    # place by `scan_one` too.
    async def _probe(self, cid):
        try:
            return await self._docker.ping(cid)
        except asyncio.CancelledError:  # expect: CAN401
            return None

    async def probe_all(self, ids, extra):
        probes = []
        for cid in ids:
            probes.append(self._probe(cid))
        probes += extra
        return await asyncio.gather(*probes)

    async def scan_one(self, cid):
        return await self._probe(cid)


class JobRunner:
    def __init__(self, backend):
        self._backend = backend

    # Buggy: gathered from an appended list by run_all, but also awaited in
    # place on a runner by run_single below, in whose caller's task the
    # cancellation is swallowed.
    async def run_job(self, job):
        try:
            return await self._backend.submit(job)
        except asyncio.CancelledError:  # expect: CAN401
            return None

    async def run_all(self, jobs):
        pending = []
        for job in jobs:
            pending.append(self.run_job(job))
        return await asyncio.gather(*pending)


async def run_single(runner, job):
    return await runner.run_job(job)
