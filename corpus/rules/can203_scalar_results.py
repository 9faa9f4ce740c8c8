"""What a thread's run hands back, turned into a string.

`result = await asyncio.to_thread(agent.start, message)`: a `start` run in
a thread is known only by its name, so its result counts as something made
only when the function keeps it somewhere. Kept as `str(result)` (or its
`len`), it is a new string holding nothing of the result. Kept as it is
(`InvokeReply(result=result)`), it is the result itself.

A string's own methods make strings (`request_id =
path.name.removesuffix(".json")`), never something to release, whatever a
handler hands the string to.
"""

import asyncio
from dataclasses import dataclass
from typing import Any


@dataclass
class InvokeReply:
    result: Any
    size: int


# Fine: only the reply's text is kept.
async def invoke(agent: Any, message: str) -> InvokeReply:
    result = await asyncio.to_thread(agent.start, message)
    return InvokeReply(result=str(result), size=len(str(result)))


# Buggy twin: the run's result itself is kept, so it counts as made there,
# and it is dropped if the await is cancelled.
async def invoke_raw(agent: Any, message: str) -> InvokeReply:
    result = await asyncio.to_thread(agent.start, message)  # expect: CAN203
    return InvokeReply(result=result, size=0)


class Service:
    async def _discard_request(self, path: str, request_id: str) -> None:
        await asyncio.sleep(0)

    # Fine: the id is a string cut from the file name.
    async def handle(self, path: Any, sandbox: Any) -> None:
        request_id = path.name.removesuffix(".json")
        try:
            await sandbox.exec(["cat", str(path)])
        except OSError:
            await self._discard_request(str(path), request_id)
            return


# Fine: the thread only connects a socket the function closes; what it
# hands back is the errno.
async def check_port(host: str, port: int) -> bool:
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        ok = await asyncio.get_running_loop().run_in_executor(None, s.connect_ex, (host, port))
        return ok == 0
    finally:
        s.close()


# Buggy twin: a connect run in the thread hands back a connection.
async def open_port(pool: Any, host: str) -> Any:
    conn = await asyncio.to_thread(pool.connect, host)  # expect: CAN203
    await asyncio.sleep(0)  # expect: CAN102
    return conn
