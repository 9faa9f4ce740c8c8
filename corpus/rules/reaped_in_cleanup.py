# A process whose cleanup waits for it (`finally: await proc.wait()`) is
# reaped there on every path, cancellation included: the child is not left
# without an owner. The wait is the cleanup's own step, as an awaited close is.
import asyncio


async def listing_lines(root):
    proc = await asyncio.create_subprocess_exec("ls", "-1", root, stdout=asyncio.subprocess.PIPE)
    try:
        while True:
            line = await proc.stdout.readline()
            if not line:
                break
            yield line.decode().rstrip()
    finally:
        await proc.wait()


async def tool_version(tool):
    proc = await asyncio.create_subprocess_exec(tool, "--version", stdout=asyncio.subprocess.PIPE)
    try:
        out, _ = await proc.communicate()
        return out.decode()
    finally:
        await proc.wait()


# Near misses: the wait is on a path cancellation does not take, or what is
# waited for is not the process.

async def usage_lines(root):
    proc = await asyncio.create_subprocess_exec("du", "-s", root, stdout=asyncio.subprocess.PIPE)
    try:
        while True:
            line = await proc.stdout.readline()  # expect: CAN101
            if not line:
                break
            yield line
    except Exception:
        await proc.wait()
        raise


async def tail_until(path, stop):
    proc = await asyncio.create_subprocess_exec("tail", "-f", path, stdout=asyncio.subprocess.PIPE)
    line = await proc.stdout.readline()  # expect: CAN102
    try:
        await stop.wait()
    finally:
        await stop.wait()
    proc.kill()
    return line


async def render(src, fast_render):
    try:
        return await fast_render(src)
    except RuntimeError:
        # the fallback makes its own child in the handler: waiting for it is
        # its work, not the cleanup of something made before
        proc = await asyncio.create_subprocess_exec("convert", src, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()  # expect: CAN102
        return out
