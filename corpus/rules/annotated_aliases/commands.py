from typing import Annotated, Any

from .drivers import Driver


def Depends(factory: Any) -> Any:
    return factory


def make_driver() -> Driver:
    return Driver(http=None)


DriverDep = Annotated[Driver, Depends(make_driver)]


# Fine: the injected driver's start_session hands back its id string.
async def tap_center(driver: DriverDep, session_id: str | None = None) -> None:
    if session_id is None:
        session_id = await driver.start_session()
    else:
        driver.session_id = session_id
    await driver.tap(50, 50, session_id=session_id)


# The same calls on an untyped receiver: by its name, a session was made.
async def tap_corner(driver: Any, session_id: str | None = None) -> None:
    if session_id is None:
        session_id = await driver.start_session()
    else:
        driver.session_id = session_id
    await driver.tap(0, 0, session_id=session_id)  # expect: CAN102
