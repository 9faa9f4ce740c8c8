from ._store_client import StoreClient

__all__ = ["StoreClient"]
