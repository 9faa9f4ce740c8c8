"""A parameter annotated through a module-level alias of its class.

`DriverDep = Annotated[Driver, Depends(make_driver)]` is how FastAPI and
typer spell an injected dependency; `driver: DriverDep` is a `Driver`, so
`await driver.start_session()` is that class's method, which keeps the id
it returns on the driver and is annotated to return a string: the caller
gets plain data, not a session to end. With the receiver untyped, the name
`start_session` alone says a session was made.
"""
