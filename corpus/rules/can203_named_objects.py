"""CAN203 and named objects a re-run finds again.

A provisioning step that creates a cloud object under a name the code
also looks it up by (`create_policy(PolicyName=self._policy_name)` beside
`self._get_policy_by_name(self._policy_name)`) makes a named object meant
to persist: if the await is cancelled while the thread creates it, the
next run finds it by that name instead of making another. An object made
without such a name (a VPC, an access key of a user) is found by nothing
and is orphaned when the result is dropped.
"""

from functools import partial
from typing import Any

import anyio


class PolicyStep:
    def __init__(self, iam: Any, policy_name: str) -> None:
        self._iam = iam
        self._policy_name = policy_name

    def _get_policy_by_name(self, name: str) -> Any:
        for page in self._iam.get_paginator("list_policies").paginate(Scope="Local"):
            for policy in page["Policies"]:
                if policy["PolicyName"] == name:
                    return policy
        return None

    # Fine: a policy made under the step's name; the next run finds it.
    async def provision(self, document: str) -> str:
        found = await anyio.to_thread.run_sync(partial(self._get_policy_by_name, self._policy_name))
        if found is not None:
            return found["Arn"]
        policy = await anyio.to_thread.run_sync(
            partial(self._iam.create_policy, PolicyName=self._policy_name, PolicyDocument=document)
        )
        return policy["Policy"]["Arn"]


class RepositoryStep:
    def __init__(self, ecr: Any, name: str) -> None:
        self._ecr = ecr
        self._repository_name = name

    async def exists(self) -> bool:
        try:
            await anyio.to_thread.run_sync(
                lambda: self._ecr.describe_repositories(repositoryNames=[self._repository_name])
            )
        except Exception:
            return False
        return True

    # Fine: the same through a lambda, looked up by a list of names.
    async def provision(self) -> str:
        response = await anyio.to_thread.run_sync(
            lambda: self._ecr.create_repository(repositoryName=self._repository_name)
        )
        return response["repository"]["repositoryUri"]


class KeyStep:
    def __init__(self, iam: Any, user_name: str) -> None:
        self._iam = iam
        self._user_name = user_name

    async def user(self) -> Any:
        return await anyio.to_thread.run_sync(partial(self._iam.get_user, UserName=self._user_name))

    # Buggy: the key is made for a user the code looks up, but the key has
    # no name of its own: dropped on a cancel, nothing finds it again.
    async def provision(self, store: Any) -> None:
        key = await anyio.to_thread.run_sync(partial(self._iam.create_access_key, UserName=self._user_name))  # expect: CAN203
        await store.save(key["AccessKey"]["AccessKeyId"])


class IndexStep:
    def __init__(self, store: Any) -> None:
        self._store = store
        self._indexes: dict = {}

    # Fine: a plain `name=` handed on by the thread call; `has_index` asks
    # for that same name first, so a re-run finds what a cancel left.
    async def ensure(self, name: str) -> Any:
        import asyncio

        if await asyncio.to_thread(self._store.has_index, name):
            return await asyncio.to_thread(self._store.get_index, name)
        index = await asyncio.to_thread(self._store.create_index, name=name, dims=8)
        self._indexes[name] = index
        return index


class BlindIndexStep:
    def __init__(self, store: Any) -> None:
        self._store = store
        self._indexes: dict = {}

    # Buggy twin: the name is never asked for, so nothing finds it again.
    async def ensure_blind(self, name: str) -> Any:
        import asyncio

        index = await asyncio.to_thread(self._store.create_index, name=name, dims=8)  # expect: CAN203
        self._indexes[name] = index
        return index
