"""A handler around a shield scope.

A try whose only checkpoint sits in `with CancelScope(shield=True):` takes
no cancellation from outside: an `except BaseException:` after it that logs
and goes on swallows only what the shielded code raised (a scope cancelled
by itself catches its own cancellation). Without the shield the same
handler swallows the caller's cancellation. A try inside the shield scope
is the same: its handlers see only what the awaited work raised. (A
runtime's own module: the scope comes from a sibling module, not from an
import of trio or anyio.)
"""

import logging
from asyncio import CancelledError

from ._scopes import CancelScope  # type: ignore[import-not-found]

log = logging.getLogger(__name__)


# Fine: the close runs shielded; the handler sees only the close's errors.
async def finalize(agen: object) -> None:
    try:
        with CancelScope(shield=True) as scope:
            scope.cancel()
            await agen.asend(None)  # type: ignore[attr-defined]
    except BaseException:
        log.exception("ignored while closing %r", agen)


# Buggy: no shield, so a cancellation of the caller ends up in the log.
async def finalize_unshielded(agen: object) -> None:
    try:
        await agen.asend(None)  # type: ignore[attr-defined]
    except BaseException:  # expect: CAN401
        log.exception("ignored while closing %r", agen)


# Fine: the whole try runs in the shield scope; the CancelledError it drops
# is the worker's own result (the worker was cancelled), never the caller's.
async def reap_worker(worker: object) -> None:
    with CancelScope(shield=True):
        try:
            await worker  # type: ignore[misc]
        except CancelledError:
            pass
        except Exception:
            log.exception("worker %r failed", worker)


# Buggy twin: the shield covers only the logging, so a cancellation of the
# caller that lands in the await is dropped with the worker's.
async def reap_worker_unshielded(worker: object) -> None:
    try:
        await worker  # type: ignore[misc]
    except CancelledError:  # expect: CAN401
        pass
    except Exception:
        with CancelScope(shield=True):
            log.exception("worker %r failed", worker)
