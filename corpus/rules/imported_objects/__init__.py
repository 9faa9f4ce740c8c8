"""Coroutines reached through a module-level object another module imports.

`relay.py` starts `forward(msg)` as a task it drops: nothing can cancel
that task, so what it awaits in place meets no cancellation either. It
awaits `ledger.record_delivery(...)` on `ledger`, an object `book.py`
makes at its top level and `relay.py` imports by name (`from .book import
ledger`): the scan cannot name its class from the import, so the call
reaches the one coroutine method of the tree named `record_delivery`,
whose bare `except:` then swallows no cancellation of anyone's. The twin
`ledger.settle_delivery(...)` is also awaited under `asyncio.wait_for` by
`settle_all`, whose timeout its handler swallows. `replay` awaits a
method of that name under a timeout too, but on an object of a library
(`vendorlib.store`), which is no call of the ledger's.
"""
