"""What is made from the subject of a running context lives in it.

`async with run_app(app):` runs `app` for the body; a sandbox created in
that app (`Sandbox.create(app=app)`) is stopped with it when the context
exits, cancelled or not. The subject is the context call's first positional
argument, a plain name. A value made from the `as` target instead (a client
the context opened) has no such owner: closing a client does not delete
what it created on a server.
"""

from typing import Any


async def run_app(app: Any) -> Any: ...


class Sandbox:
    @staticmethod
    async def create(*cmd: str, app: Any = None, client: Any = None) -> Any: ...


# Fine: the sandbox belongs to the app that the context runs.
async def shell_in_app(app: Any, cmd: str) -> int:
    async with run_app(app):
        sandbox = await Sandbox.create("sleep", "1000", app=app)
        try:
            proc = await sandbox.exec(cmd)
            return await proc.wait()
        except TimeoutError:
            await sandbox.terminate()
            raise


# Buggy: the app is run, but the sandbox is made in another one.
async def shell_elsewhere(app: Any, other: Any, cmd: str) -> int:
    async with run_app(app):
        sandbox = await Sandbox.create("sleep", "1000", app=other)
        try:
            proc = await sandbox.exec(cmd)  # expect: CAN101
            return await proc.wait()
        except TimeoutError:
            await sandbox.terminate()
            raise


# Buggy: made from the client the context opened, which does not delete it.
async def shell_with_client(open_client: Any, cmd: str) -> int:
    async with open_client() as client:
        sandbox = await Sandbox.create("sleep", "1000", client=client)
        try:
            proc = await sandbox.exec(cmd)  # expect: CAN101
            return await proc.wait()
        except TimeoutError:
            await sandbox.terminate()
            raise
