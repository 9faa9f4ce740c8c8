"""Route handlers a factory makes, and the handler objects they enter.

`app.add_api_websocket_route(path, ws_endpoint(manager))`, where
`ws_endpoint` is a function of the module that defines the handler and
returns it: the framework runs that handler in a task of its own per
connection, its outermost frame. It enters `async with
SessionHandler(ws) as handler:` and ends with `await handler.run()`, a
coroutine of another module that then runs as the connection task's last
frames: its `except CancelledError: return` ends the connection's task. The
twin runs the same kind of loop from a plain coroutine, in its caller's
task, where the caller's cancellation is swallowed.
"""
