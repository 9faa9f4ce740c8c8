# A chat API's message or reaction made in a worker thread is posted, which
# is all the call is for: a cancelled await drops only the API's reply.
import asyncio


class ChatChannel:
    def __init__(self, api):
        self._api = api

    async def post(self, request):
        reply = await asyncio.to_thread(self._api.im.v1.message.create, request)
        return reply.success()

    async def react(self, request):
        reply = await asyncio.to_thread(self._api.im.v1.message_reaction.create, request)
        return reply.success()

    # Near miss: a chat made in the thread is an object on the server that
    # someone must delete.
    async def open_chat(self, request):
        chat = await asyncio.to_thread(self._api.im.v1.chat.create, request)  # expect: CAN203
        return chat
