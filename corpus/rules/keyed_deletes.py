"""A delete or release handed what it acts on leaves its receiver alone.

`await client.delete(LEASE_KEY)` removes a key the client's server holds;
`pool.release(conn)` gives a connection back to the pool;
`registry.terminate(thread_id)` ends the session kept under that id (so
for destroy, disconnect and dispose handed a key). None of them ends the
client or the pool, so neither says the receiver is something this
function must release: a shared client fetched from a getter is not made a
resource by the error path that deletes a key through it. A delete with
nothing to act on but its receiver (`await sandbox.delete()`) still
releases the receiver, and so does one handed only a reason or a code
(`await peer.disconnect("bad response")`).
"""

from typing import Any

LEASE_KEY = "backfill:lease"


async def get_store() -> Any:
    return _STORE


_STORE: Any = None


async def run_backfill(jobs: Any) -> bool:
    store = await get_store()
    if not await store.set_if_absent(LEASE_KEY, "pending", ttl=60):
        return False
    try:
        await jobs.publish_all()
    except Exception:
        await store.delete(LEASE_KEY)
        raise
    return True


async def run_in_sandbox(api: Any, script: str) -> Any:
    sandbox = await api.sandboxes.create(image="python")
    try:
        return await sandbox.run(script)  # expect: CAN101
    except Exception:
        await sandbox.delete()
        raise


async def get_registry() -> Any:
    return _REGISTRY


_REGISTRY: Any = None


async def read_file(thread_id: str, path: str) -> bytes:
    registry = await get_registry()
    live = await registry.get_session(thread_id)
    try:
        return await live.read_file(path)
    except Exception:
        await registry.terminate(thread_id)
        raise


async def read_from_peer(pool: Any, address: str, path: str) -> bytes:
    peer = await pool.dial(address)
    try:
        return await peer.read_file(path)  # expect: CAN101
    except Exception:
        await peer.disconnect("read failed")
        raise
