"""A child process whose side effect is an object elsewhere (a container,
an instance): a CLI such as `docker run -d` awaited while the only cleanup
runs on a timeout. Cancelled, the CLI still finishes and the container
stays. The cleanup often names the object by the id it was made with
(`docker rm -f NAME`), not the process: that is still the cleanup of this
window.
"""

import asyncio
import subprocess


async def run_detached(image: str, timeout: float) -> str:
    proc = await asyncio.create_subprocess_exec("docker", "run", "-d", image, stdout=subprocess.PIPE)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout)  # expect: CAN101
    except asyncio.TimeoutError:
        proc.kill()
        raise
    return out.decode().strip()


async def run_named(name: str, image: str, timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec("docker", "run", "-d", "--name", name, image)
    try:
        await asyncio.wait_for(proc.wait(), timeout)  # expect: CAN101
    except asyncio.TimeoutError:
        await asyncio.create_subprocess_exec("docker", "rm", "-f", name)
        raise


async def start_instance(name: str, timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec("apptainer", "instance", "start", "img.sif", name)
    try:
        await asyncio.wait_for(proc.wait(), timeout)  # expect: CAN101
    except (asyncio.TimeoutError, OSError):
        await asyncio.create_subprocess_exec("apptainer", "instance", "stop", name)
        raise


# Correct: the removal by name runs on every exception, cancellation too.
async def run_named_base(name: str, image: str, timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec("docker", "run", "-d", "--name", name, image)
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except BaseException:
        rm = await asyncio.create_subprocess_exec("docker", "rm", "-f", name)
        await asyncio.shield(rm.wait())
        raise


# Correct: the handler names cancellation as well as the timeout.
async def run_named_cancel(name: str, image: str, timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec("docker", "run", "-d", "--name", name, image)
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except (asyncio.TimeoutError, asyncio.CancelledError):
        await asyncio.create_subprocess_exec("docker", "rm", "-f", name)
        raise


# Correct: a handler that only logs the name is no cleanup, and the process
# is awaited to its end under a context that kills it on any exception.
async def run_logged(name: str, image: str, timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec("docker", "run", "--rm", "--name", name, image)
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except BaseException:
        proc.kill()
        raise
    finally:
        print("done", name)
