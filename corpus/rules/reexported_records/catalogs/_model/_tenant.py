from ._base import _CatalogBase


class TenantRow(_CatalogBase):
    tenant: str
