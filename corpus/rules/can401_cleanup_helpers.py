"""A helper that lets a shielded cleanup finish, holding back the
cancellations that arrive meanwhile, is no swallow when every caller in
its module runs it from a handler that raises afterwards: the caller is
already leaving by an exception. The same helper called from ordinary
code swallows the caller's cancellation.
"""

import asyncio
from typing import Any


async def _finish_cleanup(task: "asyncio.Task[Any]") -> None:
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            continue


async def _drain(task: "asyncio.Task[Any]") -> Any:
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:  # expect: CAN401
            if task.done():
                return task.result()


class Runner:
    async def run(self, op: Any) -> Any:
        cleanup = asyncio.create_task(op.cleanup())
        try:
            return await op.run()
        except asyncio.CancelledError:
            await _finish_cleanup(cleanup)
            raise

    async def stop(self, op: Any) -> None:
        cleanup = asyncio.create_task(op.cleanup())
        try:
            await op.stop()
        except BaseException:
            await _finish_cleanup(cleanup)
            raise

    # _drain is also awaited on an ordinary path: there the cancellation it
    # catches is the caller's, and the caller goes on.
    async def settle(self, op: Any) -> Any:
        cleanup = asyncio.create_task(op.cleanup())
        try:
            await op.run()
        except asyncio.CancelledError:
            await _drain(cleanup)
            raise
        return await _drain(cleanup)


# Correct: the cancellation that arrived while waiting is recorded and
# returned with the result; the caller raises it.
async def _wait_recorded(task: "asyncio.Task[Any]") -> "tuple[Any, bool]":
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    return task.result(), cancelled


async def run_recorded(op: Any) -> Any:
    result, cancelled = await _wait_recorded(asyncio.create_task(op.run()))
    if cancelled:
        raise asyncio.CancelledError
    return result


# Buggy: the same record, never handed on: the caller's cancellation is gone.
async def wait_forgotten(task: "asyncio.Task[Any]") -> Any:
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:  # expect: CAN401
            cancelled = True
    print("cancelled" if cancelled else "done")
    return task.result()
