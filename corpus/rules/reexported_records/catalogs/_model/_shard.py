from ._base import _CatalogBase


class ShardEntry(_CatalogBase):
    key: str
    replicas: int = 1
