"""The names an unpacking binds from one connect are parts of one connection.

`transport, stream, info = await dialer.connect(host)`: a maker the
catalog does not lay out hands back the parts of one connection. Ending one
part (closing the stream) ends them all: the transport under it goes with
it, and the rest is what the handshake returned about it. A catalogued pair
(`os.pipe()`) is two resources, and a helper of the tree on self may hand
back several things of its own, each with its own cleanup.
"""

import os
from typing import Any


# Fine: a failed negotiation closes the stream, and with it the transport,
# before the loop tries the next dialer; a cancelled one closes it too.
async def first_link(dialers: Any, negotiate: Any, log: Any) -> Any:
    for dialer in dialers:
        transport, stream, info = await dialer.connect("example.org")
        try:
            info = await negotiate(stream, info)
        except ValueError:
            stream.abort()
            log.warning("negotiation refused")
            continue
        except BaseException:
            stream.abort()
            raise
        return transport, stream, info
    return None


# Buggy: the negotiation can be cancelled with the connection open; only
# `except Exception` closes it.
async def first_link_leaky(dialers: Any, negotiate: Any) -> Any:
    for dialer in dialers:
        transport, stream, info = await dialer.connect("example.org")
        try:
            info = await negotiate(stream, info)  # expect: CAN101
        except Exception:
            stream.abort()
            continue
        return transport, stream, info
    return None


# Buggy: the catalog's pair is two fds; closing the read end leaves the
# write end open when the wait is cancelled.
async def pipe_wait(wait: Any) -> None:
    r, w = os.pipe()
    try:
        await wait()  # expect: CAN101, CAN102
    except Exception:
        os.close(r)
        raise
    os.close(r)
    os.close(w)


class Launcher:
    async def _start_detached(self, argv: Any) -> Any:
        return await self.spawn(argv), open("/tmp/out", "wb"), open("/tmp/err", "wb")

    async def spawn(self, argv: Any) -> Any:
        raise NotImplementedError

    # Buggy: the helper hands back a process and two files of its own; the
    # finally closes the files, not the process.
    async def start(self, argv: Any, wait_ready: Any) -> Any:
        proc, out_f, err_f = await self._start_detached(argv)
        try:
            await wait_ready(proc)  # expect: CAN101
        except Exception:
            proc.kill()
            raise
        finally:
            out_f.close()
            err_f.close()
        return proc
