"""Entry modules: a module that runs itself is a program, not an API.

`server.py` hands its worker context to aiotools (a root context, which the
library stops by ending what it waits for, never by a cancel); the public
`server_main` it enters in place, and the contexts `server_main` enters on
its exit stack, run only in that uncancelled task: no window there.
`library.py` has the same functions but runs nothing itself: a user may
enter `server_main` under a timeout, so its windows stay.
`console.py` hands `commands.handle_sync`, a coroutine of another module, to
asyncio.run: `commands.py` runs as the program too, and `sync_all`, which
its main awaits in place, leaves its tasks to the runner. `handle_report`
is also awaited under a timeout by `dashboard.py`: `report_all` keeps its
window. `jobs.py`, imported whole (`from . import jobs`), is the same
through a module's name: `asyncio.run(jobs.handle_prune(args))`.
"""
