"""An unpacking assignment rebinds every name it lists.

`pusher = None` then `worker, pusher = make()`: what was known of `pusher`
(None) no longer holds, so `if pusher is not None: pusher.close()` in the
finally can run; the close is the cleanup of every path.
"""

from typing import Any


# Fine: the finally closes what the unpacking bound before anything else.
async def replay(factory: Any, run: Any, log: Any) -> None:
    pusher = None
    task = None
    scope = None
    try:
        worker, pusher = factory.for_replay()
        scope = worker

        async def push(item: Any) -> None:
            await pusher.push(item)

        task = await run(worker, push)
    finally:
        if pusher is not None:
            pusher.close()
        try:
            if task is not None:
                await task
        except Exception:
            log.warning("replay failed")
        finally:
            try:
                if scope is not None:
                    await scope.finalize_shutdown()
            except Exception:
                log.warning("shutdown failed")


# Buggy: the close comes after an await of the finally itself.
async def replay_late(factory: Any, run: Any, finish: Any) -> None:
    pusher = None
    try:
        worker, pusher = factory.for_replay()
        await run(worker)
    finally:
        await finish()  # expect: CAN102
        if pusher is not None:
            pusher.close()
