"""Creates that are requests, not resources.

A model API's `create` (`client.chat.completions.create(...)`,
`client.messages.create(...)`) asks for a generation and gets it back: a
timeout around it abandons the answer, not a server-side object someone
must reap. The same client's `files.create` or `batches.create` leaves an
uploaded file or a running job behind, and is a remote create.
"""

import asyncio


class Assistant:
    def __init__(self, client):
        self._client = client

    # Fine: a generation under a deadline leaves nothing behind.
    async def complete(self, messages):
        return await asyncio.wait_for(
            self._client.chat.completions.create(model="m", messages=messages, stream=False),
            timeout=30,
        )

    # Fine: the same for a streamed answer and another vendor's API.
    async def ask(self, prompt):
        async with asyncio.timeout(30):
            reply = await self._client.messages.create(model="m", max_tokens=64, messages=[prompt])
        return reply

    # Buggy: a batch job made under a deadline runs on if the wait ends.
    async def submit(self, file_id):
        job = await asyncio.wait_for(  # expect: CAN201
            self._client.batches.create(input_file_id=file_id, endpoint="/v1/chat/completions"),
            timeout=30,
        )
        return job.id


class BrowserSession:
    def __init__(self, cdp):
        self._cdp = cdp

    async def _open_blank_tab(self):
        target = await self._cdp.send.Target.createTarget(params={"url": "about:blank"})
        return target["targetId"]

    # Fine: the tab is made in the browser this session already drives.
    async def connect(self):
        return await asyncio.wait_for(self._open_blank_tab(), timeout=15)
