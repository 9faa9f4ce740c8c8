"""A call that takes over its argument takes what the argument holds.

`loop.connect_write_pipe(factory, pipe)` wraps the pipe in a transport and
closes that transport when it fails, cancelled included; on success the
transport owns it. A file opened on a duplicated descriptor
(`os.fdopen(os.dup(fd))`) holds the descriptor, so handing the file over
hands the descriptor over too. A descriptor that only sits beside the call
is still the function's.
"""

import asyncio
import os
from typing import Any


# Fine: the pipe file, and the fd it wraps, belong to the transport.
async def attach_writer(loop: asyncio.AbstractEventLoop, target: Any, factory: Any) -> Any:
    fd = os.dup(target.fileno())
    pipe = os.fdopen(fd, "wb", buffering=0)
    _, protocol = await loop.connect_write_pipe(factory, pipe)
    return protocol


# Buggy: a second descriptor is made before the call and handed over after.
async def attach_writer_and_log(loop: asyncio.AbstractEventLoop, target: Any, factory: Any, log: Any) -> Any:
    fd = os.dup(target.fileno())
    log_fd = os.dup(log.fileno())
    pipe = os.fdopen(fd, "wb", buffering=0)
    _, protocol = await loop.connect_write_pipe(factory, pipe)  # expect: CAN102
    protocol.attach_log(os.fdopen(log_fd, "w"))
    return protocol
