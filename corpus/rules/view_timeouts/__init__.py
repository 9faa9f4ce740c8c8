"""Timeouts of discord.py views.

A view's timeout runs `on_timeout` as a task of its own (discord.py's
`asyncio.create_task(self.on_timeout())`): its outermost frame is that
task, and a bare `except: pass` around the cleanup there ends the task's
own cancellation (catalog endpoint-base `discord.ui.View`, endpoint-method
`on_timeout`). Where the module also awaits an `on_timeout()` in place
(closing its menus itself), that call runs in the caller's task, whose
cancellation the handler would drop: the method is read as any other.
"""
