"""What a connection handler awaits, in any module, runs in its task.

`frontend.py` hands `TunnelFrontend._pipe` to `asyncio.start_server`: each
connection runs it in a task nothing cancels. The public `TunnelBackend.bind`
of `backends.py` is awaited in place only there, so a child it holds across
a checkpoint meets no cancellation. `TunnelBackend.probe` is also awaited
under a timeout by `health.py`, and `LineAgent.serve_lines` is run by its own
module in a task it drops but started by `health.py` in a task it cancels:
their windows stay. So does `ShellTool.capture`'s: its module drops a start
of `_arun`, but the base class in `tools.py` awaits `self._arun()`, the
override, under a timeout.
"""
