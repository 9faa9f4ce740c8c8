"""A record the error path only marks failed is kept, not released.

``run = await db.create_run(...)`` names a remote create; when the function's
only cleanup of it writes a status (``mark_run_as_failed(run.id)``,
``update_run(run.id, status="failed")``: catalog status-verb) and nothing
anywhere deletes or closes it, the author keeps the run as a record that
outlives the call, failed or not: a cancellation leaves a stale status, not an
unowned resource. A create whose error path deletes it is one.
"""

from typing import Any


async def mark_run_as_failed(db: Any, run_id: str) -> None:
    await db.update_run(run_id, status="failed")


async def start_run(db: Any, workflow: Any) -> Any:
    run = await db.create_run(workflow.id)
    try:
        await db.create_steps(run.id, workflow.steps)
    except Exception:
        await mark_run_as_failed(db, run_id=run.id)
        raise
    return run


async def start_sandbox(api: Any, image: str) -> Any:
    box = await api.create_sandbox(image)
    try:
        await box.upload_files(["main.py"])  # expect: CAN101
    except Exception:
        await box.delete()
        raise
    return box
