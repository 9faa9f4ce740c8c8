"""A worker program: the main coroutine starts its loops as tasks and
waits for them all.

A task the main coroutine starts, holds in a local and only awaits
(`await t`, `await asyncio.gather(*tasks)` of a local list) is cancelled
only through the main coroutine's own cancellation, the user's first ^C,
as a coroutine it awaited in place would be: a loop that turns that
cancellation into its own orderly stop is the program's way to end. A
task the program also cancels, or waits for under a timeout, is cancelled
by someone else, and a swallow there is one.
"""

import asyncio
from typing import Any


class Worker:
    def __init__(self, api: Any) -> None:
        self.api = api
        self.stopping = False

    def shutdown(self) -> None:
        self.stopping = True

    def time_to_stop(self) -> bool:
        return self.stopping and not self.api.pending()

    # Fine: started by main() and only gathered there.
    async def _submit_loop(self) -> None:
        while True:
            try:
                await self.api.submit_next()
                if self.time_to_stop():
                    break
            except asyncio.CancelledError:
                self.shutdown()
            await asyncio.sleep(0.1)

    # Fine: started by main(), appended to the list main() gathers.
    async def _poll_loop(self) -> None:
        while True:
            try:
                await self.api.poll()
                if self.time_to_stop():
                    break
            except asyncio.CancelledError:
                self.shutdown()

    # Buggy twin: main() cancels this one when the others end, and the
    # loop goes round again as if nothing had been asked.
    async def _heartbeat_loop(self) -> None:
        while True:
            try:
                await self.api.heartbeat()
                if self.time_to_stop():
                    break
            except asyncio.CancelledError:  # expect: CAN401
                self.shutdown()
            await asyncio.sleep(1)

    # Buggy twin: main() waits for it under a timeout, whose expiry cancels
    # it and is swallowed.
    async def _flush_loop(self) -> None:
        while True:
            try:
                await self.api.flush_all()
                if self.time_to_stop():
                    break
            except asyncio.CancelledError:  # expect: CAN401
                self.shutdown()

    # (private: no other module awaits it, so asyncio.run in start() is
    # its only runner)
    async def _main(self) -> None:
        submit = asyncio.create_task(self._submit_loop(), name="submit")
        submit.add_done_callback(lambda t: None)
        tasks = [submit]
        poll = asyncio.create_task(self._poll_loop())
        tasks.append(poll)
        try:
            await asyncio.gather(*tasks)
        finally:
            await self.finish()

    async def finish(self) -> None:
        beat = asyncio.create_task(self._heartbeat_loop())
        flush = asyncio.create_task(self._flush_loop())
        try:
            await asyncio.sleep(5)
        finally:
            beat.cancel()
            await asyncio.wait_for(flush, timeout=10)

    def start(self) -> None:
        asyncio.run(self._main())
