"""A command-line entry: `asyncio.run(main())` in the module's own main."""

import asyncio
from typing import Any


# Fine: it runs only in the runner's main task, awaited in place by main;
# the runner cancels what it leaves running when it ends.
async def fetch_all(urls: list, fetch: Any) -> list:
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    done, _ = await asyncio.wait(tasks)
    return [t.result() for t in done]


async def main(urls: list, fetch: Any) -> None:
    print(await fetch_all(urls, fetch))


def run(urls: list, fetch: Any) -> None:
    asyncio.run(main(urls, fetch))
