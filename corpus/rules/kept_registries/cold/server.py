"""The same code over the map that only remembers keys."""

import json
from typing import Tuple

from ..warm.dbconn import PoolConn
from .pool_map import ConnMap

conn_map = ConnMap()


def open_db(host: str, database: str) -> Tuple:
    global conn_map
    existing = conn_map.get(host, database)
    if existing:
        return existing, json.dumps({"host": host, "cached": True})
    conn = PoolConn(host, database)
    conn_map.set(host, database, conn)
    return conn, json.dumps({"host": host, "cached": False})


def open_db_maybe_kept(host: str, database: str, keep: bool) -> Tuple:
    conn = PoolConn(host, database)
    if keep:
        conn_map.set(host, database, conn)
    return conn, json.dumps({"host": host})


async def connect_db(host: str, database: str) -> str:
    # Buggy: cold.pool_map.ConnMap.set keeps nothing, whatever its name.
    conn, note = open_db(host, database)
    try:
        await conn.start_pool()  # expect: CAN101
    except Exception:
        conn_map.remove(conn)
        await conn.close()
        raise
    return note


async def connect_db_maybe(host: str, database: str, keep: bool) -> str:
    conn, note = open_db_maybe_kept(host, database, keep)
    try:
        # Buggy: with keep false nobody holds the connection but this call.
        await conn.start_pool()  # expect: CAN101
    except Exception:
        conn_map.remove(conn)
        await conn.close()
        raise
    return note
