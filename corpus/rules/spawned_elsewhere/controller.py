"""The controller's entry point: its main coroutine builds one sweeper or
the other and runs it to the end of the program."""

import asyncio

from .sweepers import KubeSweeper, LocalSweeper


async def _run_controller(kind: str) -> None:
    if kind == "kube":
        sweeper = KubeSweeper()
    else:
        sweeper = LocalSweeper()
    await sweeper.run()


def main(kind: str) -> None:
    asyncio.run(_run_controller(kind))


async def probe(kind: str) -> bool:
    if kind == "kube":
        checker = KubeSweeper()
    else:
        checker = LocalSweeper()
    return await checker.check()
