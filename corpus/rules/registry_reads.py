"""A cached value released before its entry is deleted.

`pw, browser = cache[key]` reads an entry; `await pw.stop()` releases it;
`del cache[key]` then takes out nothing that is still held: the stale
entry's teardown is done. The new value made after it is the function's
own until it is cached.
"""


class ConnectionCache:
    _cache = {}

    @classmethod
    async def acquire(cls, key, playwright_factory):
        if key in cls._cache:
            pw, browser = cls._cache[key]
            if browser.is_connected():
                return pw, browser
            await pw.stop()
            del cls._cache[key]
        pw = await playwright_factory().start()
        browser = await pw.chromium.connect_over_cdp(key)  # expect: CAN102
        cls._cache[key] = (pw, browser)
        return pw, browser

    @classmethod
    async def evict(cls, key, notify):
        # Buggy: the entry is taken out first, then torn down across an await.
        pw, browser = cls._cache[key]
        del cls._cache[key]
        await notify(key)  # expect: CAN301
        await pw.stop()
