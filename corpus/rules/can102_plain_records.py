"""Handing tasks back in a record whose constructor cannot raise.

`return WorkerHandle(process=proc, pump=pump)` of a class of the tree whose
__init__ only stores its parameters on self cannot fall into the `except
Exception` around it: the loop that retries on errors is not reached from
there, so the pump task made right before has no later checkpoint. A record
whose constructor calls something (here it validates the name) may raise,
and the retry loop then holds the task into its next round.
"""

import asyncio


class WorkerHandle:
    """What a started worker hands back."""

    def __init__(self, process, pump) -> None:
        self.process = process
        self.pump = pump
        self.restarts = 0


class CheckedHandle:
    def __init__(self, process, pump, name) -> None:
        self.process = process
        self.pump = pump
        self.name = validate_name(name)


def validate_name(name):
    if not name:
        raise ValueError("worker needs a name")
    return name


async def heartbeat(probe) -> None:
    while await probe.ping():
        pass


# Fine: nothing after the pump's start can raise into the retry handler.
async def launch_worker(cmd, probe):
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
    try:
        for _ in range(50):
            try:
                await probe.ready()
                pump = asyncio.create_task(heartbeat(probe))
                return WorkerHandle(process=proc, pump=pump)
            except Exception:
                await asyncio.sleep(0.1)
    except BaseException:
        proc.kill()
        raise
    proc.kill()
    raise RuntimeError("worker never became ready")


# Buggy: the checked record may raise, and the loop goes round again with
# the pump task live.
async def launch_checked(cmd, probe, name):
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
    attempts = 0
    try:
        while attempts < 50:
            attempts += 1
            try:
                await probe.ready()  # expect: CAN102
                pump = asyncio.create_task(heartbeat(probe))
                handle = CheckedHandle(process=proc, pump=pump, name=name)
            except Exception:
                await asyncio.sleep(0.1)
                continue
            return handle
    except BaseException:
        proc.kill()
        raise
    proc.kill()
    raise RuntimeError("worker never became ready")
