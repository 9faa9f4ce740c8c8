"""Service classes whose framework runs their `launch` in a task it never cancels.

Launart runs the `launch(manager)` of each registered `Service` as a task
of its own and cancels it only when it aborts at process exit: the
`launch` of a subclass (here two levels down) and the daemon it awaits in
place meet no cancellation, so a child process left across their awaits
is no leak. A class that is no service, or a service whose `launch` the
tree also awaits itself (`restart()`), is judged as any coroutine.
"""

import asyncio

from launart import Service


class BridgeBase(Service):
    id = "bridge"

    async def daemon(self, argv):
        proc = await asyncio.create_subprocess_exec(*argv)
        await asyncio.sleep(1)
        try:
            await proc.wait()
        finally:
            if proc.returncode is None:
                proc.kill()


class Bridge(BridgeBase):
    async def launch(self, manager):
        relay = await asyncio.create_subprocess_exec("relay")
        await self.daemon(["bridge", "--serve"])
        relay.kill()


class Scheduler:
    async def launch(self, manager):
        relay = await asyncio.create_subprocess_exec("relay")
        await asyncio.sleep(5)  # expect: CAN102
        relay.kill()


class Watcher(Service):
    id = "watcher"

    async def launch(self, manager):
        relay = await asyncio.create_subprocess_exec("watch")
        await asyncio.sleep(5)  # expect: CAN102
        relay.kill()

    async def restart(self, manager):
        await self.launch(manager)
