"""CAN203 and objects made inside an existing parent.

A create run as a method of a remote object the function made
(`vpc.create_route_table`), or one naming an existing parent by its id
(`create_action_group(agentId=self._agent_id, ...)`), makes a child that
lives in that parent: reached through it and deleted with it. Only the
parent, or an object made with no parent, is orphaned when a cancelled
await drops the result. An id named for the object made
(`create_session(sessionId=...)`) names no parent.
"""

import asyncio
from functools import partial
from typing import Any

import anyio


class Network:
    def __init__(self, ec2: Any) -> None:
        self._ec2 = ec2

    async def provision(self, cidr: str) -> Any:
        vpc = await anyio.to_thread.run_sync(partial(self._ec2.create_vpc, CidrBlock=cidr))  # expect: CAN203
        # Fine: the route table is made inside the new VPC.
        table = await anyio.to_thread.run_sync(vpc.create_route_table)
        return vpc, table


class Agent:
    def __init__(self, client: Any, agent_id: str) -> None:
        self._client = client
        self._agent_id = agent_id

    # Fine: the action group is made inside the existing agent.
    async def add_group(self, name: str) -> Any:
        loop = asyncio.get_running_loop()
        group = await loop.run_in_executor(
            None, partial(self._client.create_action_group, agentId=self._agent_id, groupName=name)
        )
        return group

    # Buggy twin: the session's own id names no parent; the session made
    # in the thread is orphaned when the await is cancelled.
    async def open_session(self, session_id: str) -> Any:
        loop = asyncio.get_running_loop()
        session = await loop.run_in_executor(  # expect: CAN203
            None, partial(self._client.create_session, sessionId=session_id)
        )
        return session
