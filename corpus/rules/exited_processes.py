"""A process waited for has exited.

`await proc.wait()` (or `communicate()`) returning normally means the
child has exited and been reaped: nothing is left to release, so later
checkpoints are no windows for it. A process not yet waited for still has
them.
"""

import asyncio


# Fine: once wait() returns, the process is gone.
async def run_then_report(cmd: list, reported: asyncio.Event) -> int:
    proc = await asyncio.create_subprocess_exec(*cmd)
    try:
        await proc.wait()
    except BaseException:
        proc.kill()
        raise
    await reported.wait()
    return proc.returncode or 0


# Fine: communicate() also waits for the exit.
async def run_capture(cmd: list, reported: asyncio.Event) -> bytes:
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
    try:
        out, _ = await proc.communicate()
    except BaseException:
        proc.kill()
        raise
    await reported.wait()
    return out


# Buggy: the event is awaited before the wait, with the child running.
async def report_then_run(cmd: list, reported: asyncio.Event) -> int:
    proc = await asyncio.create_subprocess_exec(*cmd)
    await reported.wait()  # expect: CAN102
    try:
        await proc.wait()
    except BaseException:
        proc.kill()
        raise
    return proc.returncode or 0



# A call of a library not in the scan whose name says it makes a process
# (`open_..._process`, `spawn_...`): the naming heuristic reads the noun, not
# only the verb, so its result is a process, and waiting for it settles it.
async def run_worker(pool, cmd: list, reported: asyncio.Event):
    proc = await pool.open_worker_process(cmd)
    try:
        await proc.wait()
    except BaseException:
        proc.kill()
        raise
    await reported.wait()
    return proc


# Buggy: the same process is still running at the event.
async def run_pooled(pool, cmd: list, reported: asyncio.Event) -> int:
    proc = await pool.open_worker_process(cmd)
    await reported.wait()  # expect: CAN102
    try:
        await proc.wait()
    except BaseException:
        proc.kill()
        raise
    return proc.returncode or 0
