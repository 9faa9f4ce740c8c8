from typing import Any

from .replies import ReplyRecord


class ReplySession:
    def __init__(self, store: Any) -> None:
        self.store = store

    # Fine: the reply is a record; closing it on failure stores its state.
    async def run(self, agent: Any, user_id: str) -> None:
        reply = None
        try:
            async for event in agent.stream(user_id):
                if event.kind == "start":
                    reply = ReplyRecord(name=event.name, user=user_id)
                elif reply is not None:
                    reply.parts.append(event)
        except Exception as exc:
            await self._report_failure(user_id, exc)
            if reply is not None:
                await self._close_failed_reply(reply, exc)
            raise

    async def _report_failure(self, user_id: str, exc: Exception) -> None:
        await self.store.save_error(user_id, str(exc))

    async def _close_failed_reply(self, reply: Any, exc: Exception) -> None:
        await self.store.save_reply(reply, str(exc))
