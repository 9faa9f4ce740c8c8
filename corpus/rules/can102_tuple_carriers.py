"""A helper of the module that hands back its resource with plain values.

`proc, data, argv = await _spawn(...)` of a helper whose every return is
`return proc, data, argv` (or `return None, None, None`), where only `proc`
is a catalogued maker's result and the others are its parameters, values
popped from them or plain calls: only `proc` is the resource. Once the
caller hands `proc` to its tracker, nothing of the call is unowned. A
helper that also hands back what an awaited call made (`conn = await
_connect(...)`) may return a second resource there, and that part stays one.
"""

import asyncio


async def _spawn(*argv, **kwargs):
    data = kwargs.pop("input", None)
    if data is not None:
        kwargs["stdin"] = asyncio.subprocess.PIPE
    try:
        proc = await asyncio.create_subprocess_exec(*argv, **kwargs)
        return proc, data, argv
    except FileNotFoundError:
        pass
    return None, None, None


async def _connect(host):
    return await asyncio.open_connection(host, 80)


async def _spawn_and_connect(host, *argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    conn = await _connect(host)  # expect: CAN102
    return proc, conn


# Fine: the process goes to the tracker; data and argv are plain values.
async def run(tracker: set, *argv, **kwargs):
    proc, data, argv = await _spawn(*argv, **kwargs)
    if proc is None:
        return None
    tracker.add(proc)
    await asyncio.sleep(0.1)
    try:
        return await proc.communicate(data)
    finally:
        tracker.discard(proc)
        proc.kill()


# Buggy: the connection the helper made is the caller's, and nothing owns
# it across the sleep.
async def run_connected(tracker: set, host, *argv):
    proc, conn = await _spawn_and_connect(host, *argv)
    tracker.add(proc)
    await asyncio.sleep(0.1)  # expect: CAN102
    try:
        return await proc.wait()
    finally:
        tracker.discard(proc)
        conn[1].close()
