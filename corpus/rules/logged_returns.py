"""A log call between a connect and the return that hands the connection
back does not raise into the retry handler: logging's handlers deal with
their own errors (`Handler.handleError`), so no pass of the loop goes
round again holding the previous connection. A call that may raise there
(a check of the new connection) does send the path back round the loop,
with the connection live at the next attempt's await.
"""

import asyncio
import logging
from typing import Any

LOG = logging.getLogger(__name__)


async def dial_with_retry(transport: Any, address: str, attempts: int = 3) -> Any:
    checked = False
    for attempt in range(1, attempts + 1):
        try:
            if not checked:
                await transport.resolve(address)
                checked = True
            conn = await transport.connect(address)
            if attempt > 1:
                LOG.info("connected to %s after %d attempts", address, attempt)
            return conn
        except OSError:
            LOG.warning("attempt %d to %s failed", attempt, address)
            await asyncio.sleep(0.5)
    raise ConnectionError(address)


async def dial_checked(transport: Any, address: str, attempts: int = 3) -> Any:
    for attempt in range(1, attempts + 1):
        try:
            conn = await transport.connect(address)  # expect: CAN102
            transport.verify(conn)
            return conn
        except OSError:
            LOG.warning("attempt %d to %s failed", attempt, address)
            await asyncio.sleep(0.5)
    raise ConnectionError(address)
