"""Loops that another module starts as tasks.

`keepalive_pinger` is written as the body of a task and never awaited in
its module; the session module starts it with `asyncio.create_task(...)`
and cancels that task to stop it. Its `except CancelledError: break` ends
the task it is the outermost frame of, as for a task its own module
starts. The twins: `inbox_pump`, of the same shape, is awaited directly by
the session (the cancellation it swallows is its caller's), and
`status_poller` is started as a task elsewhere but also awaited in its
own module, so it does not always run as a task.

`RelayBase.connect` starts `self._pump_updates()`, an abstract method of
the base; the implementation lives in a mixin (`UpdatePumpMethods`) that
`Relay` combines with the base, so the task runs the mixin's loop, whose
`except CancelledError: pass` is that task's own end.

`LineHandler.handle` starts `self._listen()`; `SipLineHandler` (another
module) overrides `_listen`, and on its objects the task runs the
override, whose handler is that task's end. The twin `_drain` is awaited.

`Worker.run` is awaited by the runner's task (`_run_worker`, a task the
runner module starts) as its last step, outside any loop, and its own
module never awaits it: its handler is that task's end. The twins:
`Worker.check`, awaited by a coroutine that is no task, and `Worker.step`,
awaited by a task once per worker of a loop, which goes on after it.

`MetricsExporter.export_loop` is started as a task by `lifespan`, on a
module-level object of the class (`exporter = MetricsExporter()`), which
cancels that task at shutdown: its handler is that task's end. The twin
`flush_once` is awaited in place through the same object.

`controller._run_controller`, the main coroutine of `asyncio.run`, builds a
`KubeSweeper` or a `LocalSweeper` in the clauses of one if and awaits the
object's `run` as its last step: either class's `run` is that task's end.
The twins, `check` of both classes, are awaited by `probe`, which is no
task.

`FrameMixer.mix_frames` is started as a task by the studio through
`app.state.mixer`, an object whose class the studio cannot name, and the
studio keeps that task and cancels it: the one coroutine of the tree with
that name runs as its outermost frame. The twins: `mix_replay`, started
the same way but also awaited in place by `replay`, and `mix_preview`,
started and dropped.
"""
