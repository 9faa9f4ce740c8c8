"""Request handlers of servers that never cancel them.

aiohttp (since 3.9) and Starlette run a route's handler in the request's
task and do not cancel it when the client goes away: a handler the module
hands only to a route registration meets no cancellation at its
checkpoints. `plain.py` registers its handlers so; `cancelling.py` turns
on aiohttp's handler_cancellation, and there a disconnect cancels them.
"""
