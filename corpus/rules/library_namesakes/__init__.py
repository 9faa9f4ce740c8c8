"""A class of the tree that shares its name with a library's.

`records.AppRunner` is a plain record of this package (it owns nothing).
`fetch.py` makes `web.AppRunner(app)`, aiohttp's runner, whose setup runs
the application's startup hooks: the package name `aiohttp` is no module of
this tree, and no part of it is the record's module, so the name means the
library's class, not the record, and the runner is a window across its
setup. The record made in `fetch.py` by its own module's name is the
tree's class, which owns nothing.
"""
