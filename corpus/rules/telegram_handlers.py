"""Handler callbacks a python-telegram-bot Application runs.

The Application awaits each handler's callback for an update, in its
update task or in a task of its own, and never cancels those tasks:
stopping it waits for them. A catch-all in such a callback swallows no
cancellation, and a child left across its awaits is not orphaned by one.
A coroutine a handler awaits under a timeout (`wait_for(self.refresh(...),
5)`) meets that timeout's cancellation.
"""

import asyncio

from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters


class Bot:
    def __init__(self, token):
        self.token = token

    async def answer(self, update, context):
        for attempt in range(3):
            try:
                await update.message.reply_text("working")
                break
            except:
                continue
        await update.message.reply_text("done")

    async def convert(self, update, context):
        proc = await asyncio.create_subprocess_exec("convert", "in.png", "out.jpg")
        await update.message.reply_text("converting")
        await proc.wait()

    async def button(self, update, context):
        try:
            await update.callback_query.answer()
        except BaseException:
            pass
        await update.callback_query.edit_message_text("ok")

    async def refresh(self, update, context):
        try:
            await update.message.reply_text("refreshing")
        except BaseException:  # expect: CAN401
            pass
        await update.message.reply_text("refreshed")

    async def timed(self, update, context):
        await asyncio.wait_for(self.refresh(update, context), 5)

    def run(self):
        app = Application.builder().token(self.token).build()
        app.add_handler(CommandHandler("answer", self.answer))
        app.add_handler(MessageHandler(filters.PHOTO, self.convert))
        app.add_handler(CallbackQueryHandler(self.button))
        app.add_handler(CommandHandler("timed", self.timed))
        app.run_polling()
