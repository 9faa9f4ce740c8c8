"""CAN401: the cancelling() test behind a function of another module.

A tool runner contains a `CancelledError` that a client library leaks on
its own (an internal cancel scope), and tells it apart from a cancellation
of its own task through a helper of another module named for the question
(`if task_is_cancelling(): raise`): the caller's cancellation is raised
again. A helper named for something else does not tell them apart.
"""
