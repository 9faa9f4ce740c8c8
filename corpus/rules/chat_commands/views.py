"""A chat bot's interactive components: discord.py runs a modal's
submission, a button's press and a view's check of it each in a task the view
or modal starts, keeps no handle to, and never cancels."""

import asyncio

import discord
from discord import ui


class RenameModal(ui.Modal, title="Rename"):
    # Fine: a modal's submission, dispatched as a task of its own.
    async def on_submit(self, interaction):
        proc = await asyncio.create_subprocess_exec("rename", str(interaction.id))
        await proc.wait()
        try:
            await interaction.response.send_message("done")
        except BaseException:
            pass


class StartButton(discord.ui.Button):
    # Fine: a button's press, and what it alone awaits in place.
    async def callback(self, interaction):
        await self._start(interaction)

    async def _start(self, interaction):
        proc = await asyncio.create_subprocess_exec("start", str(interaction.id))
        await proc.wait()


class BaseMenu(discord.ui.View):
    pass


class ConfirmMenu(BaseMenu):
    # Fine: the check before each press, in the press's task (through a
    # base class of the tree). (view_timeouts/ awaits its menus'
    # on_timeout in place, which makes every on_timeout a plain method.)
    async def interaction_check(self, interaction):
        proc = await asyncio.create_subprocess_exec("audit", str(interaction.id))
        await proc.wait()
        return True

    # Buggy: the bot's own code also awaits it under a deadline, which
    # cancels it mid-wait.
    async def on_error(self, interaction, error, item):
        proc = await asyncio.create_subprocess_exec("report", str(error))
        await proc.wait()  # expect: CAN102

    async def report_quickly(self, interaction, error):
        await asyncio.wait_for(self.on_error(interaction, error, None), 1.0)


class Webhook:
    # Buggy: a method named like a component's is no component's: nothing
    # says who calls it, or whether it may be cancelled.
    async def on_submit(self, payload):
        proc = await asyncio.create_subprocess_exec("deliver", payload)
        await proc.wait()  # expect: CAN102
