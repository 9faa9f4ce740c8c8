"""A caught exception handed along a chain and raised after it.

Each error hook gets the exception the one before it raised; when none
recovers, the last one is raised. The cancellation is kept in a variable
and raised after the loop: it is deferred, not dropped. The same loop that
forgets the caught exception and ends normally swallows it.
"""


async def on_run_error(hooks, error):
    # Fine: the chain hands the error on and raises it when no hook recovers.
    for hook in hooks:
        try:
            return await hook(error=error)
        except BaseException as new_error:
            error = new_error
    raise error


async def on_run_error_quietly(hooks, error, log):
    # Buggy: the last error is logged and the function returns normally.
    for hook in hooks:
        try:
            return await hook(error=error)
        except BaseException as new_error:  # expect: CAN401
            error = new_error
    log.warning("no hook recovered from %r", error)
    return None
