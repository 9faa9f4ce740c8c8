"""What the code after a checkpoint can still do, along its paths.

A checkpoint inside one branch of an if reaches the code after the if, not
the other branches: a value whose only fate (its release, its hand-over)
sits in a sibling branch meets the same fate on this path whether the task
is cancelled here or not. In a loop the next pass can take the other
branch, so there every later step counts.
"""

from typing import Any


async def open_tunnel(spec: Any) -> Any: ...


# Fine: on the `sock` path the tunnel is never used nor closed (it only
# exists when a tunnel is asked for as well); the await there decides
# nothing about it.
async def connect(loop: Any, spec: Any, sock: Any, factory: Any) -> Any:
    tunnel = await open_tunnel(spec)
    if sock:
        _, conn = await loop.create_connection(factory, sock=sock)
    elif tunnel:
        try:
            _, conn = await tunnel.create_connection(factory, spec.host, spec.port)
        except BaseException:
            tunnel.close()
            raise
        conn.set_tunnel(tunnel)
    else:
        _, conn = await loop.create_connection(factory, spec.host, spec.port)
    return conn


# Buggy: the tunnel is handed over after the if, on every path.
async def connect_then_keep(loop: Any, spec: Any, sock: Any, factory: Any) -> Any:
    tunnel = await open_tunnel(spec)
    if sock:
        _, conn = await loop.create_connection(factory, sock=sock)  # expect: CAN102
    else:
        _, conn = await loop.create_connection(factory, spec.host, spec.port)
    if conn is None:
        tunnel.close()
        return None
    conn.set_tunnel(tunnel)
    return conn


# Buggy: in a retry loop the next pass may take the branch that closes it.
async def connect_retrying(loop: Any, spec: Any, factory: Any, tries: int) -> Any:
    tunnel = await open_tunnel(spec)
    for attempt in range(tries):
        if attempt < tries - 1:
            try:
                _, conn = await loop.create_connection(factory, spec.host, spec.port)  # expect: CAN102
                return conn
            except OSError:
                continue
        else:
            tunnel.close()
    return None
