"""Clients started as tasks by another module, where nothing can cancel them.

An extension module starts a client's coroutine as a plain task and keeps
no handle to it (`asyncio.create_task(self.recognizer.start())` as a
statement), or keeps it where it is only tested: that task is a root of
its own, which nothing but the loop's teardown at the process's end can
cancel, so the child process and the stream the client opens in it leak
nothing a cancellation could cut short. The twins are started by the same
module into a task another method cancels (`self._task.cancel()`), or
awaited by a method a caller may cancel: there the window is real.

So is a start that is the body of a lambda handed to a call that drops
what its callback returns (`signal.signal(SIGTERM, lambda *a:
asyncio.create_task(self.drain()))`), but not one of a lambda the code
keeps and calls (`task = self._flusher(); task.cancel()`).

A handler that swallows the teardown's cancel in such a task still keeps
the task running, so CAN401 is reported there as anywhere (`listen`).
"""
