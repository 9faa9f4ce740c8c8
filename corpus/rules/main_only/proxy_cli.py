"""A program's main coroutine whose name is also a module of a package.

`from proxykit.daemon import ProxyDaemon` names the package's module
`daemon`, not this module's `daemon` coroutine, and `Thread(daemon=True)`
names a keyword: neither is a use of the coroutine, which the module
still only hands to `asyncio.run`. The twin is also kept in a table of
commands, which may await it anywhere.
"""

import asyncio
import threading
from typing import Any, Callable, Dict

from proxykit.daemon import ProxyDaemon


# Fine: the main coroutine of asyncio.run, named nowhere else.
async def daemon(config: Any) -> None:
    proc = await asyncio.create_subprocess_exec("proxy-helper", config.path, stdout=asyncio.subprocess.PIPE)
    proxy = ProxyDaemon(config)
    await proxy.start()
    await proc.wait()


# Buggy twin: also put in the table of commands.
async def relay(config: Any) -> None:
    proc = await asyncio.create_subprocess_exec("relay-helper", config.path, stdout=asyncio.subprocess.PIPE)
    proxy = ProxyDaemon(config)
    await proxy.start()  # expect: CAN102
    await proc.wait()


COMMANDS: Dict[str, Callable[..., Any]] = {"relay": relay}


def main(config: Any) -> None:
    threading.Thread(target=print, daemon=True).start()
    asyncio.run(daemon(config))


def main_relay(config: Any) -> None:
    asyncio.run(relay(config))
