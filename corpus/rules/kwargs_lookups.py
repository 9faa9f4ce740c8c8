"""A value looked up in the function's **kwargs is the caller's.

A wrapper patched around a library method reads what the caller passed by
keyword (`agent = kwargs.get("agent")`) and, when the wrapped call fails,
closes the tracing span it keeps on that object. The object is the
caller's, handed in and still held by the caller: a cancellation of the
wrapped call leaves it where it was. One the wrapper makes itself from
those arguments is its own.
"""


def close_agent_span(agent):
    span = getattr(agent, "_span", None)
    if span is not None:
        span.finish()


def open_agent(**kwargs):
    return Agent(**kwargs)


class Agent:
    def __init__(self, **kwargs):
        self.options = kwargs

    def close(self):
        self.options.clear()


# Fine: the agent is the caller's.
async def execute_handoffs(original, *args, **kwargs):
    agent = kwargs.get("public_agent", kwargs.get("agent"))
    try:
        return await original(*args, **kwargs)
    except Exception:
        close_agent_span(agent)
        raise


# Buggy: the wrapper makes the agent and closes it only on an error.
async def execute_with_fresh_agent(original, *args, **kwargs):
    agent = open_agent(**kwargs)
    try:
        return await original(agent, *args)  # expect: CAN101
    except Exception:
        agent.close()
        raise
