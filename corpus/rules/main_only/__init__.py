"""Coroutines that run only in the main task of asyncio.run.

`asyncio.run(_main(args))` cancels, when _main ends, every task still
running; the only cancellation of a private main is the user's interrupt,
which ends it. A coroutine awaited in place, outside any timeout, at every call of it
in the tree, by such a coroutine (here or in another module), runs in that
task too: a task it leaves behind on a cancellation is the runner's to
cancel. Only a private or local coroutine, or one of the module that runs
the main: a public one of another module may be awaited by code outside
the tree. The twin is also awaited under a timeout, whose expiry cancels
it while the program goes on: there its task is left running.
"""
