import asyncio
from functools import wraps

bot_loop = asyncio.new_event_loop()


def background(func):
    @wraps(func)
    async def wrapper(*args, **kwargs):
        return bot_loop.create_task(func(*args, **kwargs))

    return wrapper


def awaited(func):
    @wraps(func)
    async def wrapper(*args, **kwargs):
        return await asyncio.ensure_future(func(*args, **kwargs))

    return wrapper
