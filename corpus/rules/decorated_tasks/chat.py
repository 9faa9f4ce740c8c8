import asyncio

from .tasks import background


class Upload:
    def __init__(self, chat):
        self.chat = chat
        self.ready = asyncio.Event()
        self.is_cancelled = False
        self.jobs = {}

    # Fine: awaited in place only by `run`, a task nobody keeps.
    async def _wait_ready(self):
        try:
            await asyncio.wait_for(self.ready.wait(), timeout=60)
        except:
            self.is_cancelled = True

    @background
    async def run(self):
        await self._wait_ready()
        await self.chat.send("uploaded")

    # Buggy: awaited in place by `poll`, whose task `start_polling` keeps
    # and may cancel; the bare except drops that cancellation.
    async def _fetch_once(self):
        try:
            return await self.chat.fetch()
        except:  # expect: CAN401
            return None

    @background
    async def poll(self):
        while not self.is_cancelled:
            await self._fetch_once()
            await asyncio.sleep(5)

    async def start_polling(self, name):
        self.jobs[name] = await self.poll()


async def on_upload(chat):
    upload = Upload(chat)
    await upload.run()
