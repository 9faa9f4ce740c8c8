"""A Telegram bot on Pyrogram (or a fork): its dispatcher awaits each
handler in one of a few worker tasks and stops them by enqueuing a stop
mark and waiting, never by cancelling. Telethon's handlers are another
matter: its disconnect cancels their tasks."""

import asyncio

from pyrogram import Client, filters
from telethon import events

app = Client("bot")
tele = None


async def _notify(message):
    try:
        await message.reply_text("working")
    except:  # noqa: E722
        pass


# Fine: a message handler, awaited by a dispatcher worker nothing cancels;
# nor what it alone awaits in place.
@app.on_message(filters.command("encode"))
async def encode(client, message):
    proc = await asyncio.create_subprocess_exec("ffmpeg", "-i", message.path)
    await _notify(message)
    await proc.wait()


# Fine: a callback query handler on the client class (a plugin).
@Client.on_callback_query(filters.regex("^stop"))
async def stop_button(client, query):
    try:
        await query.answer("stopping")
    except BaseException:
        return


# Buggy: a Telethon handler; a disconnect cancels its task, and the child
# is left running.
@tele.on(events.NewMessage(pattern="/encode"))
async def encode_telethon(event):
    proc = await asyncio.create_subprocess_exec("ffmpeg", "-i", event.path)
    await proc.wait()  # expect: CAN102
