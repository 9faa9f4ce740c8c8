"""The console script: each command's coroutine runs under asyncio.run."""

import asyncio
import sys
from typing import Any

from . import jobs
from .commands import handle_report, handle_sync


def cli(args: Any) -> None:
    if sys.argv[1:2] == ["sync"]:
        asyncio.run(handle_sync(args))
    elif sys.argv[1:2] == ["prune"]:
        asyncio.run(jobs.handle_prune(args))
    elif sys.argv[1:2] == ["vacuum"]:
        asyncio.run(jobs.handle_vacuum(args))
    else:
        asyncio.run(handle_report(args))
