"""A tool whose module also drops a start of its _arun."""

import asyncio

from .tools import Tool


class ShellTool(Tool):
    def __init__(self, command: str) -> None:
        self.command = command

    def warm_up(self) -> None:
        asyncio.get_running_loop().create_task(self._arun())

    async def _arun(self) -> str:
        return await self.capture()

    # Buggy: Tool.run, in another module, awaits _arun (this override) under
    # run_bounded's timeout; the dropped start in warm_up is not its only run.
    async def capture(self) -> str:
        proc = await asyncio.create_subprocess_exec(self.command, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()  # expect: CAN102
        return out.decode()


class CacheWarmer:
    def __init__(self, command: str) -> None:
        self.command = command

    def start(self) -> None:
        asyncio.get_running_loop().create_task(self._arun())

    async def _arun(self) -> None:
        await self.fill()

    # Fine: only the task start drops runs it; the `self._arun()` of
    # tools.py is Tool's, a class this one does not derive from.
    async def fill(self) -> None:
        proc = await asyncio.create_subprocess_exec(self.command, "--fill")
        await asyncio.sleep(0.1)
        proc.kill()
        await proc.wait()
