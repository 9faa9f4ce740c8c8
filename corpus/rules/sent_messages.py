"""A message a send posted is content, not something held. A chat command
that posts a prompt and deletes it when nobody answers in time tidies the
channel; cancelled while it waits, it leaves a stale message, nothing that
holds a connection or a server's capacity. What an uncatalogued call made
counts as a resource when a cleanup releases it, except when the call's
name says it sends a message (catalog message-verb), also after a word
that only qualifies the verb (`safe_send_message`, catalog verb-qualifier).
"""

import asyncio
from typing import Any


class Prompter:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    # Fine: the prompt is a posted message, deleted only to tidy up.
    async def confirm(self, channel: Any, text: str) -> bool:
        prompt = await channel.send(text)
        try:
            reply = await self.bot.wait_for("message", timeout=30)
        except asyncio.TimeoutError:
            await prompt.delete()
            return False
        return reply.content == "yes"

    # Buggy twin: what a provision made is deleted only on a timeout; a
    # cancellation during the wait leaves the machine running.
    async def lease(self, api: Any, size: str) -> Any:
        box = await api.provision(size)
        try:
            await asyncio.wait_for(box.ready(), timeout=30)  # expect: CAN101
        except asyncio.TimeoutError:
            await box.delete()
            raise
        return box


class Picker:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def safe_send_message(self, channel: Any, text: str) -> Any:
        try:
            return await channel.send(text)
        except Exception:
            return None

    # Fine: the list posted through the bot's guarded send is tidied up
    # when the user picks or gives up.
    async def pick(self, channel: Any, choices: list) -> Any:
        listing = await self.safe_send_message(channel, "\n".join(choices))
        try:
            reply = await self.bot.wait_for("message", timeout=30)
        except asyncio.TimeoutError:
            await listing.delete()
            return None
        await listing.delete()
        return choices[int(reply.content)]


async def edit_or_reply(event: Any, text: str) -> Any:
    if getattr(event, "out", False):
        return await event.edit(text)
    return await event.reply(text)


# Fine: the status message a helper function posted (or edited in
# place) is content; deleting it when the work fails only tidies up.
async def generate(event: Any, api: Any, prompt: str) -> Any:
    status = await edit_or_reply(event, "working...")
    try:
        image = await api.render(prompt)
    except Exception:
        await status.delete()
        raise
    await status.edit("done")
    return image


class Pager:
    # Fine: the page edited into the channel is a message too.
    async def page(self, bot: Any, msg: Any, embed: Any) -> None:
        shown = await bot.safe_edit_message(msg, embed)
        try:
            await bot.wait_for("reaction_add", timeout=60)
        except asyncio.TimeoutError:
            await shown.delete()
