"""The console script: each command's coroutine runs under asyncio.run."""

import asyncio
import sys
from typing import Any

from .commands import handle_report, handle_sync


def cli(args: Any) -> None:
    if sys.argv[1:2] == ["sync"]:
        asyncio.run(handle_sync(args))
    else:
        asyncio.run(handle_report(args))
