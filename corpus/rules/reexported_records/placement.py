from dataclasses import dataclass
from typing import Any

from .catalogs import ShardEntry, TenantRow


@dataclass
class BucketName:
    region: str
    name: str


class ShardPlacer:
    def __init__(self, index: Any, db: Any, cache: Any) -> None:
        self.index = index
        self.db = db
        self.cache = cache

    async def place(self, key: str, replicas: int) -> Any:
        # nothing exists while create_shard runs; the shard exists after it,
        # and only `except Exception` deletes it
        entry = ShardEntry(key=key, replicas=replicas)
        await self.index.create_shard(entry.key, replicas)
        try:
            return await self.db.record_placement(entry)  # expect: CAN101
        except Exception:
            await self.index.delete_shard(entry.key)
            raise

    async def place_guarded(self, key: str) -> Any:
        # the twin that also drops the shard on cancellation
        entry = ShardEntry(key=key)
        await self.index.create_shard(entry.key, 1)
        try:
            return await self.db.record_placement(entry)
        except BaseException:
            await self.index.delete_shard(entry.key)
            raise

    async def remember(self, tenant: str) -> None:
        # a key record handed to a cache, never to a making call: deleting
        # the entry on failure tidies the cache, it releases nothing
        row = TenantRow(tenant=tenant)
        await self.cache.put(row.tenant, row)
        try:
            await self.db.touch_tenant(tenant)
        except Exception:
            await self.cache.delete(row.tenant)
            raise


class BucketMaker:
    def __init__(self, storage: Any, audit: Any) -> None:
        self.storage = storage
        self.audit = audit

    async def make(self, region: str, name: str) -> BucketName:
        # a record of this module: the bucket it names exists once
        # create_bucket returns, and only `except Exception` deletes it
        bucket = BucketName(region=region, name=name)
        await self.audit.note_request(region, name)
        await self.storage.create_bucket(bucket.region, bucket.name)
        try:
            await self.audit.note_created(bucket)  # expect: CAN101
        except Exception:
            await self.storage.delete_bucket(bucket.region, bucket.name)
            raise
        return bucket
