"""The running event loop and the current task are borrowed.

`loop = asyncio.get_running_loop()` ... `except EOFError: loop.stop()`
stops the program's loop; it is no resource of the function's that a
cancellation could leak. The twin opens a socket of its own and closes it
only on EOFError.
"""

import asyncio
import socket


async def shell(console):
    loop = asyncio.get_running_loop()
    try:
        await console.interact()
    except EOFError:
        loop.stop()


async def stop_on_eof(console):
    me = asyncio.current_task()
    try:
        await console.interact()
    except EOFError:
        me.cancel()


async def shell_with_socket(console, addr):
    sock = socket.create_connection(addr)
    try:
        await console.interact(sock)  # expect: CAN101
    except EOFError:
        sock.close()
