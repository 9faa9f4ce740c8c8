"""Alternative constructors awaited under a timeout.

`await asyncio.wait_for(TradeStats.create(fills), 5)` reads like a remote
create by its name, but `create` is a class method of a class of the tree,
annotated to return that class, which holds nothing: it builds an
in-memory object, and a timeout leaves nothing on a server. The twin's
class (`Workspace`) deletes what it stands for in its own `close()`, so
its `create` makes a remote object a timeout can lose.
"""
