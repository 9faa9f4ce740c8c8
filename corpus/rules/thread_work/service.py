import asyncio
from typing import Any

from . import makers
from .makers import create_report_client


# Fine: the manifest is a dict built in the thread.
async def publish(root: str, names: list, api: Any) -> None:
    manifest = await asyncio.to_thread(makers.create_manifest, root, names)
    await api.post("/manifests", manifest["sha256"])


# Buggy: the spool file opened in the thread is lost on a cancel.
async def record(path: str, stream: Any) -> None:
    spool = await asyncio.to_thread(makers.create_spool, path)  # expect: CAN203
    try:
        async for chunk in stream:
            spool.write(chunk)
    finally:
        spool.close()


# Fine: a function of this package imported by name, run in the thread:
# what it hands back is judged by what it does, not by `create_*` (a client
# object nothing here ever closes, dropped on every path alike).
async def monthly_costs(region: str) -> Any:
    client = await asyncio.to_thread(create_report_client, region)
    return await asyncio.to_thread(client.get_cost_and_usage, Granularity="MONTHLY")


# Buggy twin: this caller closes the client on errors, so it is a resource
# here, and a cancel of the second await skips that close.
async def monthly_costs_checked(region: str) -> Any:
    client = await asyncio.to_thread(create_report_client, region)  # expect: CAN203
    try:
        return await asyncio.to_thread(client.get_cost_and_usage, Granularity="MONTHLY")  # expect: CAN101
    except Exception:
        client.close()
        raise
