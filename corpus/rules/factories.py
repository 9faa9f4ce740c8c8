"""Alternative constructors: `await Cls.create(...)` annotated to return the
class (in quotes or not) makes an object of that class, so what the tree
says of the class decides whether it is a resource. A record (a dataclass)
holds nothing; a class whose close releases what it holds is a resource.
"""

import asyncio
from dataclasses import dataclass
from typing import Any, Optional

from .compose import cleanup_images, run_compose


@dataclass
class Project:
    name: str
    config: Optional[str]

    @classmethod
    async def create(cls, name: str, config: Optional[str]) -> "Project":
        path = await asyncio.to_thread(lambda: config)
        return Project(name=name, config=path)


class Stack:
    def __init__(self, name: str, proc: Any) -> None:
        self.name = name
        self._proc = proc

    @classmethod
    async def create(cls, name: str) -> "Stack":
        proc = await asyncio.create_subprocess_exec("compose", "up", name)
        return cls(name, proc)

    async def close(self) -> None:
        self._proc.kill()
        await self._proc.wait()


# Fine: create() makes a record; nothing is running yet when the services
# are listed, so nothing leaks.
async def prepare(name: str, config: Optional[str]) -> None:
    project = await Project.create(name, config)
    await run_compose("config", project)
    await run_compose("build", project)
    await cleanup_images(project)


# Leaks: Stack.create starts a process that only close() stops.
async def prepare_stack(name: str) -> None:
    stack = await Stack.create(name)
    try:
        await run_compose("build", stack.name)  # expect: CAN101
    except Exception:
        await stack.close()
        raise
    await stack.close()
