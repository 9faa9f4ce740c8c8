"""Starts the exporter's loop as a task on a module-level object and
cancels it at shutdown; awaits its flush in place."""

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from .exporters import MetricsExporter

exporter = MetricsExporter()


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    task = asyncio.create_task(exporter.export_loop())
    yield
    task.cancel()


async def flush_now(reason: str) -> None:
    await exporter.flush_once()
    print(reason)
