"""A value the function raises is an exception, not a resource.

`_, err = await pipe.dce.connect(path)` hands back a result pair whose second
half is the error (None on success); `if err is not None: raise err` says
what it is, whatever the call that made it is named; so does its name
(`err`, `error`, `exc`, `login_err`), when the error is only recorded and
never raised. The other half of the pair is judged as any value.
"""

import asyncio
from typing import Any


class PipeLink:
    dce: Any = None


class ShareReader:
    def __init__(self, share: Any) -> None:
        self.share = share

    # Fine: err is the error half; nothing of it leaks across the pause
    # before the retry. The error is handed back the same way (`return None, e`).
    async def open_checked(self, path: str) -> Any:
        try:
            pipe = PipeLink()
            pipe.dce = self.share
            _, err = await pipe.dce.connect(path)
            if err is not None:
                await asyncio.sleep(2)
                _, err = await pipe.dce.connect(path)
                if err is not None:
                    raise err
            return pipe, None
        except Exception as e:
            return None, e

    # Buggy: the handle is closed only when something other than a
    # cancellation stops the read.
    async def read_all(self, path: str) -> bytes:
        handle, err = await self.share.open(path)
        if err is not None:
            raise err
        try:
            data = await handle.read()  # expect: CAN101
        except Exception:
            await handle.close()
            raise
        await handle.close()
        return data


class BatchFetcher:
    def __init__(self, share: Any, log: Any) -> None:
        self.share = share
        self.log = log
        self.failed: dict = {}
        self.open_handles: dict = {}

    # Fine: the error half is only recorded, by the target's name, after
    # the log write; it holds nothing across it.
    async def fetch_each(self, paths: list) -> None:
        for path in paths:
            _, err = await self.share.open(path)
            if err is not None:
                await self.log.write(path)
                self.failed[path] = err

    # Buggy twin: the handle half is kept across the log write.
    async def fetch_one(self, path: str) -> Any:
        handle, err = await self.share.open(path)
        if err is not None:
            self.failed[path] = err
            return None
        await self.log.write(path)  # expect: CAN102
        self.open_handles[path] = handle
        return handle
