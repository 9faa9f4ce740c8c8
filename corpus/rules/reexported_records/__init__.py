"""Records of the tree reached through a package's re-exports.

`from .catalogs import ShardEntry` names a class that `catalogs/__init__.py`
does not define: it re-exports it from `._model`, whose `__init__.py`
re-exports it from `._shard`. None of those modules
has async code, so the scan lowers them only because a function here needs
to know the class: it follows each `from ... import` that names the class
to the module that defines it, and the class's private base with it.

A record assembled here names nothing until an awaited call whose name says
it makes something is handed it (`await self.index.create_shard(entry.key)`);
a cleanup that drops what it names (`delete_shard(entry.key)`) then releases a
real thing, so the windows after that call are real and the one at the call
itself is not.
"""
