# A create whose handler takes "already exists" as success (`if e.status !=
# 409: raise`, `except AlreadyExistsError: pass`) makes an object meant to be
# there whoever made it: one a timeout abandons and that lands later leaves
# just the state the next call accepts.
import asyncio
import logging

log = logging.getLogger(__name__)


class ApiError(Exception):
    status = 0


class VolumeAlreadyExists(Exception):
    pass


class Cluster:
    def __init__(self, api, timeout):
        self.api = api
        self.timeout = timeout

    async def ensure_namespace(self, ns):
        try:
            await asyncio.wait_for(self.api.create_namespace(ns), self.timeout)
        except ApiError as e:
            if e.status != 409:
                raise

    async def ensure_claim(self, claim):
        try:
            await asyncio.wait_for(self.api.create_volume_claim(claim), self.timeout)
            return True
        except asyncio.TimeoutError:
            return False
        except ApiError as e:
            if e.status == 409:
                log.info("claim %s exists already", claim)
                return True
            raise

    async def ensure_volume(self, name):
        try:
            await asyncio.wait_for(self.api.create_volume(name), self.timeout)
        except VolumeAlreadyExists:
            pass

    # Near misses: a conflict the code resolves by deleting the old object
    # and trying again is no "already exists is fine"; nor is a create with
    # no such handler.
    async def start_worker(self, spec):
        try:
            await asyncio.wait_for(self.api.create_worker(spec), self.timeout)  # expect: CAN201
            return True
        except asyncio.TimeoutError:
            return False
        except ApiError as e:
            if e.status != 409:
                raise
            await self.api.delete_worker(spec.name)
            return False

    async def start_job(self, spec):
        try:
            await asyncio.wait_for(self.api.create_job(spec), self.timeout)  # expect: CAN201
        except ApiError as e:
            log.warning("job failed: %s", e.status)
            raise

    # Near miss: a handler that catches everything and only logs names no
    # conflict class, whatever its message says.
    async def start_service(self, spec):
        try:
            await asyncio.wait_for(self.api.create_service(spec), self.timeout)  # expect: CAN201
        except Exception:
            log.warning("Conflict or failure creating %s", spec)
