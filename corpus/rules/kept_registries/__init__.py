"""A helper that hands back what a registry keeps.

`conn, note = open_db(key)` of a helper that returns the registry's entry
(`existing = conn_map.get(key)`) or a new connection it has just given to
the registry (`conn_map.set(key, conn)`, a method of the module-level
`conn_map = ConnMap()` that keeps what it is given): on every path the
caller borrows the connection, so closing it on an error path is tidying
the registry's entry, not the cleanup of a value the caller owns. The
registry class is found through its module path: two packages here define
a `pool_map.ConnMap`, and only warm's keeps what `set` is given. A helper
that gives the connection to the registry on some paths only still hands
the caller one nobody else holds.
"""
