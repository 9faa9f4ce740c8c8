"""A decorator whose wrapper stands in for functions run as tasks.

`@abortable` wraps a transfer so that a cancellation ends it with a reply to
the client. Where every function the module decorates with it runs as a
task of the module (started and then cancelled by its dispatcher), the
wrapper is the outermost frame of those tasks, and the cancellation it
catches is the task's own end. A decorator one of whose functions is also
awaited directly swallows that caller's cancellation.
"""

import asyncio
import functools


def abortable(f):
    @functools.wraps(f)
    async def wrapper(server, conn, arg):
        try:
            await f(server, conn, arg)
        except asyncio.CancelledError:
            conn.reply("426 transfer aborted")

    return wrapper


def quiet(f):
    @functools.wraps(f)
    async def wrapper(server, conn, arg):
        try:
            await f(server, conn, arg)
        except asyncio.CancelledError:  # expect: CAN401
            conn.reply("aborted")

    return wrapper


class Server:
    async def list_dir(self, conn, arg):
        @abortable
        async def list_worker(server, conn, arg):
            await conn.send_listing(arg)

        coro = list_worker(self, conn, arg)
        conn.workers.add(asyncio.create_task(coro))

    async def retrieve(self, conn, arg):
        @abortable
        async def retrieve_worker(server, conn, arg):
            await conn.send_file(arg)

        conn.workers.add(asyncio.create_task(retrieve_worker(self, conn, arg)))

    async def store(self, conn, arg):
        @quiet
        async def store_worker(server, conn, arg):
            await conn.receive_file(arg)

        @quiet
        async def status_worker(server, conn, arg):
            await conn.send_status(arg)

        conn.workers.add(asyncio.create_task(store_worker(self, conn, arg)))
        await status_worker(self, conn, arg)
