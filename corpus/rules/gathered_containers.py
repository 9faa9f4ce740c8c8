"""Tasks collected in a list and gathered.

`await asyncio.gather(*tasks)` passes a cancellation into every task of
the list: none is left running when the gather is cancelled. Awaiting the
futures `as_completed` hands out settles one at a time: a cancellation
while waiting for one leaves the others running.
"""

import asyncio


# Fine: the gather cancels every crawl when it is cancelled.
async def crawl_all(crawler, urls, monitor):
    tasks = []
    for url in urls:
        monitor.add(url)
        task = asyncio.create_task(crawler.crawl(url))
        tasks.append(task)
    return await asyncio.gather(*tasks, return_exceptions=True)


# Buggy: only the awaited future goes with the cancellation.
async def crawl_first_done(crawler, urls):
    tasks = []
    for url in urls:
        task = asyncio.create_task(crawler.crawl(url))
        tasks.append(task)
    results = []
    for fut in asyncio.as_completed(tasks):
        results.append(await fut)  # expect: CAN102
    return results, tasks
