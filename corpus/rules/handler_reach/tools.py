"""A tool base whose run awaits the override of _arun."""

import asyncio


class Tool:
    async def run(self) -> str:
        return await self._arun()

    async def _arun(self) -> str:
        return ""  # a tool that does nothing


async def run_bounded(tool: Tool) -> str:
    return await asyncio.wait_for(tool.run(), 5)
