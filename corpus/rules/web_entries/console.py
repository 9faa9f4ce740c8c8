import asyncio


# Fine: the server (serve.py) runs it for each connection, through a
# functools.partial, in a task of its own.
async def interact(monitor, reader, writer):
    try:
        while line := await reader.readline():
            writer.write(monitor.run(line))
            await writer.drain()
    except asyncio.CancelledError:
        writer.write(b"server going down\n")
    writer.close()


# Buggy: the same shape, awaited by the local console, which goes on.
async def repl(monitor, reader, writer):
    try:
        while line := await reader.readline():
            writer.write(monitor.run(line))
            await writer.drain()
    except asyncio.CancelledError:  # expect: CAN401
        writer.write(b"interrupted\n")


async def local_console(monitor, reader, writer):
    await repl(monitor, reader, writer)
    writer.write(b"bye\n")
