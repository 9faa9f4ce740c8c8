"""A chat bot's commands and listeners: discord.py runs each event in a task
of its own that it keeps no handle to and never cancels."""

import asyncio

import click
from discord.ext import commands

bot = commands.Bot(command_prefix="?")


async def _render(name):
    proc = await asyncio.create_subprocess_exec("render", name)
    await proc.wait()


class Tools(commands.Cog):
    # Fine: a command, run in the task of the message that invokes it,
    # which nothing cancels; nor what it alone awaits in place.
    @commands.command()
    async def ping(self, ctx, host):
        proc = await asyncio.create_subprocess_exec("ping", "-c", "1", host)
        await proc.wait()
        await _render(host)

    @commands.group()
    async def settings(self, ctx):
        pass

    # Fine: a subcommand of a group defined beside it.
    @settings.command(name="show")
    async def settings_show(self, ctx):
        try:
            await ctx.send("settings")
        except BaseException:
            return

    # Fine: a listener, dispatched as a task of its own.
    @commands.Cog.listener()
    async def on_member_join(self, member):
        proc = await asyncio.create_subprocess_exec("greet", str(member))
        await proc.wait()

    # Buggy: also awaited by the cog's own code under a timeout, which
    # cancels it at the deadline.
    @commands.command()
    async def fetch(self, ctx, name):
        proc = await asyncio.create_subprocess_exec("fetch", name)
        await proc.wait()  # expect: CAN102

    # Buggy: the command hands out its own task for a ?stop command to
    # cancel; the cancel leaves the child running.
    @commands.command()
    async def render(self, ctx, name):
        self.jobs[ctx.author.id] = asyncio.current_task()
        proc = await asyncio.create_subprocess_exec("render", name)
        await proc.wait()  # expect: CAN102

    @commands.command()
    async def stop(self, ctx):
        job = self.jobs.pop(ctx.author.id, None)
        if job is not None:
            job.cancel()

    async def fetch_quick(self, ctx):
        await asyncio.wait_for(self.fetch(ctx, "x"), 1.0)


class Servers(commands.Cog):
    def __init__(self, bot, make_loop):
        self.bot = bot
        # (a polling loop of a helper library, which the cog's unload
        # cancels, runs the check too)
        self.loop = make_loop(function=self.check_servers, minutes=1)

    # Buggy: a command awaits it, but the loop above also runs it, in a
    # task that unloading the cog cancels; the swallow lets the round go
    # on after the unload.
    async def check_servers(self):
        for host in ("a", "b"):
            try:
                await self.bot.ping(host)
            except asyncio.CancelledError:  # expect: CAN401
                continue

    # Fine: only the command awaits it.
    async def show_servers(self, ctx):
        try:
            await ctx.send("a, b")
        except asyncio.CancelledError:
            return

    @commands.command()
    async def forcecheck(self, ctx):
        await self.check_servers()
        await self.show_servers(ctx)


# Fine: an event of the module's bot.
@bot.event
async def on_ready():
    proc = await asyncio.create_subprocess_exec("announce")
    await proc.wait()


# Buggy: a click command is no chat handler (the decorator's name alone
# says nothing); called by its CLI's runner, which ^C cancels mid-run.
@click.command()
async def export(path):
    proc = await asyncio.create_subprocess_exec("export", path)
    await proc.wait()  # expect: CAN102


class Other:
    # Buggy: `command` of something that is no group of a chat framework.
    @export.command()
    async def nested(self, path):
        proc = await asyncio.create_subprocess_exec("nested", path)
        await proc.wait()  # expect: CAN102
