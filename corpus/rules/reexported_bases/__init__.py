"""A base class named through the package that re-exports it.

``from reexported_bases._base import StoreClient`` names the package
``_base``, whose ``__init__`` re-exports the class from
``_base/_store_client.py``. The class is found there even though another
module of the tree is called ``_base`` (``_http/_base.py``): a client of the
tree that owns nothing stays known as such, and ``await
MemoryStoreClient.open(...)`` (a maker's name) holds nothing. A client that
opens a socket of its own is a resource whatever its base.
"""
