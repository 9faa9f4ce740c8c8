"""Coroutines that run only in the main task of asyncio.run.

`asyncio.run(_main(args))` cancels, when _main ends, every task still
running; the only cancellation of a private main is the user's interrupt,
which ends it. A private or local coroutine awaited in place, outside any timeout, at
every call of it in the tree, by such a coroutine of its own module, runs
in that task too: a task it leaves behind on a cancellation is the
runner's to cancel. A public one may be awaited by code outside the tree,
and a module's own calls are what a scan of it sees. The twin is also
awaited under a timeout, whose expiry cancels it while the program goes
on: there its task is left running.
"""
