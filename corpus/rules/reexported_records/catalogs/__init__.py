"""Public names of the catalog records; defined in ._model."""

from ._model import (
    ShardEntry,  # the record a shard is made from
    TenantRow,
)

__all__ = ["ShardEntry", "TenantRow"]
