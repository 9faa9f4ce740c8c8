"""Tasks started through a method of another module's task supervisor.

`self._supervisor.create(self._run())` (the attribute assigned from a
parameter annotated `TaskSupervisor`), or `supervisor.create(self._loop())`
on such a parameter, where `TaskSupervisor.create(self, coroutine, ...)`
starts its first parameter after self as a task it keeps and cancels at
shutdown: the method handed in is the outermost frame of that task, and
its cancellation is the task's own stop. The twin awaits the same kind of
loop in the caller's task, where a caller's cancellation is swallowed.

A task whose body is a closure of the method that starts it and awaits a
coroutine of another module through an attribute of self (`await
self.feeder.run()`, `self.feeder` typed `Feeder`) runs that coroutine as
its last frames: the closure's `self` is the method's.
"""
