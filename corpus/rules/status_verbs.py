"""A release word after a verb that writes a status names the status.

`await steps.update_step_stop_reason(step_id, reason)` writes why a step
stopped; `mark_closed(session_id)` records that something closed. Neither
releases what it is handed, so a call result that the function only hands
to such calls in its cleanup is a record, not a resource. The twin hands
the same value to a call that does release it.
"""

from typing import Any


def new_step_id() -> str:
    return "step"


# Fine: step_id is an id; the finally only writes the step's stop reason.
async def run_step(steps: Any, agent: Any) -> None:
    step_id = new_step_id()
    await steps.log_step(step_id)
    try:
        await agent.step(step_id)
    finally:
        await steps.update_step_stop_reason(step_id, "end_turn")


# Fine: the handler marks the session closed in the registry's records.
async def open_session(registry: Any, peer: Any) -> None:
    session_id = registry.allocate()
    await peer.greet(session_id)
    try:
        await peer.serve(session_id)
    except BaseException:
        registry.mark_closed(session_id)
        raise


# Buggy twin: the finally closes the step's lease, so the lease is a
# resource, unowned across the log call before the try.
async def run_leased_step(steps: Any, agent: Any) -> None:
    lease = steps.acquire_step()
    await steps.log_step(lease)  # expect: CAN102
    try:
        await agent.step(lease)
    finally:
        await steps.close_step(lease)
