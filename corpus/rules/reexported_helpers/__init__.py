"""A function of the tree called through another module that binds its name.

`groups.create_task` starts a coroutine in the task group of the current
context, or keeps a reference to the task where there is none: what it
returns is owned either way. `api.py` binds it by another module's name
(`create_task = groups_lib.create_task`), `facade.py` imports it
(`from .groups import create_task`); a call `api.create_task(...)` or
`facade.create_task(...)` reaches that function, whose summary decides, as a
call `groups.create_task(...)` does. A module that binds the name to a
library's function (`compat.create_task = asyncio.ensure_future`) binds no
function of the tree: its task is started there and is the caller's own.
"""
