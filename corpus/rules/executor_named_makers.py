"""A function run in a worker thread whose name only sounds like a maker.

`_open_tags` is a function of this module named `open...`; what it returns
(parsed tags) is no resource unless the code treats it as one. The twins
keep what a module function named so returns (stored on the object, so it
is something that needs an owner), or run a library's `create_...` method,
which stays a maker by its name alone. An SSL context built in a thread
(`_create_context`, annotated `-> ssl.SSLContext`) is kept, but holds
nothing to release. A library's method that starts something (`crew.start`,
`svc.start_session`) mostly starts its receiver and hands back what the run
produced: it needs the same evidence (released or kept somewhere).
"""

import asyncio
import ssl

import anyio


def _open_tags(stream):
    start = stream.tell()
    tags = parse_tags(stream)
    stream.seek(start)
    return tags


def _open_handle(path):
    return path.expanduser().open("rb")


def _create_context(cafile) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=cafile)
    context.check_hostname = True
    return context


def parse_tags(stream):
    return {"title": stream.read(16)}


async def read_title(stream):
    loop = asyncio.get_running_loop()
    tags = await loop.run_in_executor(None, _open_tags, stream)
    return tags["title"]


class Reader:
    def __init__(self, path):
        self.path = path
        self.handle = None

    async def __aenter__(self):
        loop = asyncio.get_running_loop()
        handle = await loop.run_in_executor(None, _open_handle, self.path)  # expect: CAN203
        self.handle = handle
        return self


class TlsProvider:
    def __init__(self, cafile):
        self.cafile = cafile
        self._context = None

    async def context(self):
        loop = asyncio.get_running_loop()
        context = await loop.run_in_executor(None, _create_context, self.cafile)
        self._context = context
        return context


class Network:
    def __init__(self, ec2):
        self._ec2 = ec2

    async def provision(self):
        gateway = await anyio.to_thread.run_sync(self._ec2.create_gateway)  # expect: CAN203
        return gateway.id


class CrewRunner:
    def __init__(self, crew, sessions):
        self.crew = crew
        self.sessions = sessions

    # Fine: the crew's run output, only turned into a reply.
    async def run(self, topic):
        output = await asyncio.to_thread(self.crew.start, topic)
        return {"reply": f"{output}"}

    # The twin closes what the start made when the reply fails: a session.
    async def open_session(self, user):
        session = await asyncio.to_thread(self.sessions.start_session, user)  # expect: CAN203
        try:
            await self.sessions.announce(user)  # expect: CAN101
        except Exception:
            session.close()
            raise
        return session
