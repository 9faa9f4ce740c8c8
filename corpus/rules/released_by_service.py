"""A service's method named for a release releases what it is handed.

``await api.delete_sandbox(box.id)`` on a client the function is handed (a
parameter, a module's client) deletes the sandbox named by its argument,
not the client: in an ``except Exception`` handler it is the cleanup that
cancellation skips (CAN101), not an unrelated call. On an object the
function built itself (``transport.terminate_session(client)``) the name
speaks of that object's own session, as before.
"""

from typing import Any


class SandboxApi:
    async def create_sandbox(self, image: str) -> Any: ...
    async def delete_sandbox(self, sandbox_id: str) -> None: ...


async def start_sandbox(api: Any, image: str) -> Any:
    box = await api.create_sandbox(image)
    try:
        await box.upload_files(["main.py"])  # expect: CAN101
    except Exception:
        await api.delete_sandbox(box.id)
        raise
    return box


async def start_sandbox_shielded(api: Any, image: str) -> Any:
    box = await api.create_sandbox(image)
    try:
        await box.upload_files(["main.py"])
    except BaseException:
        await api.delete_sandbox(box.id)
        raise
    return box
