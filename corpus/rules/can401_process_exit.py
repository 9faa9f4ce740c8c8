"""A path that ends the process does not complete normally.

`os._exit(0)`, `os.abort()`, the `os.exec*` family and `sys.exit()` never
return to the code after them (the catalog's noreturn-call): a handler
that catches the cancellation and goes on to end the process swallows
nothing a caller could still see, as a handler that raises does not.
"""

import asyncio
import os
import shutil
import sys
from typing import Any


# Fine: whatever the lifespan catches, the process ends right after.
async def lifespan(app: Any, tasks: list) -> None:
    try:
        await app.serve()
    except asyncio.CancelledError:
        pass
    shutil.rmtree("/tmp/app-files", ignore_errors=True)
    os._exit(0)


# Fine: the worker's last word is its exit status.
async def worker_main(job: Any) -> None:
    try:
        await job.run()
    except asyncio.CancelledError:
        print("stopped", file=sys.stderr)
        sys.exit(1)


# Swallows: only one branch ends the process; the other completes.
async def maybe_exit(job: Any) -> None:
    try:
        await job.run()
    except asyncio.CancelledError:  # expect: CAN401
        if job.failed():
            os._exit(1)
    await job.report()
