"""A context manager's exit that lets the with-body's exception decide.

`__aexit__(self, typ, value, tb)` handing back a false value makes the
`async with` raise the body's exception again. A handler around the exit's
own work that re-raises what it caught unless that is the body's exception
in flight (`if exc is not value: raise`, `if value is None: raise`), and
then returns False, swallows nothing: the with statement raises it; so
does the inverse test (`if exc is value: return False`, then `raise`). The
twins hand back True (the body's exception, the cancellation among them,
is suppressed) or return False without asking which exception they caught.
"""

from typing import Any, AsyncIterator


class StartableContext:
    def __init__(self, gen: AsyncIterator[Any]) -> None:
        self.gen = gen

    # Fine: the exception thrown into the generator comes back out of it;
    # any other is raised, and for that one the exit hands back False.
    async def __aexit__(self, typ: Any, value: Any, traceback: Any) -> bool:
        if typ is None:
            return False
        try:
            await self.gen.athrow(value)
        except BaseException as exc:
            if exc is not value:
                raise
            return False
        raise RuntimeError("generator didn't stop after athrow()")


class SuppressingContext:
    def __init__(self, gen: AsyncIterator[Any]) -> None:
        self.gen = gen

    # Buggy twin: True suppresses the body's exception, a cancellation too.
    async def __aexit__(self, typ: Any, value: Any, traceback: Any) -> bool:
        if typ is not None:
            try:
                await self.gen.athrow(value)
            except BaseException as err:  # expect: CAN401
                if err is not value:
                    raise
                return True
        await self.gen.aclose()
        return False


class CarelessContext:
    def __init__(self, gen: AsyncIterator[Any]) -> None:
        self.gen = gen

    # Buggy twin: a cancellation of the task during the generator's cleanup
    # is not the body's exception, yet the exit returns False for it too.
    async def __aexit__(self, typ: Any, value: Any, traceback: Any) -> bool:
        try:
            await (self.gen.athrow(value) if typ else self.gen.aclose())
        except BaseException:  # expect: CAN401
            return False
        return typ is None


class ThrowingContext:
    def __init__(self, gen: AsyncIterator[Any]) -> None:
        self.gen = gen

    # Fine, the inverse test: False when what came back is the body's own
    # exception (the with statement raises it), a raise for anything else.
    async def __aexit__(self, typ: Any, value: Any, traceback: Any) -> bool:
        if typ is None:
            await self.gen.aclose()
            return False
        try:
            await self.gen.athrow(value)
        except StopAsyncIteration as stop:
            return stop is not value
        except BaseException as exc:
            if exc is value:
                return False
            raise
        raise RuntimeError("generator didn't stop after athrow()")


class LenientContext:
    def __init__(self, gen: AsyncIterator[Any]) -> None:
        self.gen = gen

    # Buggy twin: the same test, but another exception (a cancellation of
    # the task during the generator's cleanup) is dropped as well.
    async def __aexit__(self, typ: Any, value: Any, traceback: Any) -> bool:
        try:
            await self.gen.athrow(value)
        except BaseException as exc:  # expect: CAN401
            if exc is value:
                return False
            print("exit failed:", exc)
            return False
        return True
