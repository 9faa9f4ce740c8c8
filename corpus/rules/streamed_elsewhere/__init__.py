"""Event streams of one module that another module hands to a streaming
response.

`feeds.log_events` is an async generator that ends quietly when it is
cancelled; `routes.py` hands it to `StreamingResponse`, which iterates it
in a task of its own group and cancels that scope when the client goes
away: the generator's outermost frame is that task, and ending then is the
stream's own end (as for a generator its own module hands to the runner).
`feeds.replay_events`, of the same shape, is also iterated in place by its
own module (`async for`), in a caller's task whose cancellation it would
drop: it is read as any other.
"""
