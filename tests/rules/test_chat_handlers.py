#!/usr/bin/env python3
"""Chat framework handlers (catalog event-handler): discord.py runs each
event in a task it keeps no handle to and never cancels, so a window in a
command or listener is not reported, unless the program can cancel any of
its tasks: a function that cancels what it finds in `asyncio.all_tasks()`,
or a chat command that cancels in a module that lists them (an operator's
`?cancel_task`), in a module the scan reads (one with coroutines or task
starts of its own). That is a whole-tree fact, so it is checked here on trees
written here rather than in the corpus, which is scanned as one tree.

A view's or modal's methods the framework calls (catalog event-base,
event-method) follow the same exception.

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import json
import os
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

COG = '''
import asyncio
from discord.ext import commands


class Tools(commands.Cog):
    @commands.command()
    async def ping(self, ctx, host):
        proc = await asyncio.create_subprocess_exec("ping", "-c", "1", host)
        await proc.wait()

    @commands.Cog.listener()
    async def on_message(self, message):
        try:
            await message.add_reaction("ok")
        except BaseException:
            pass
'''

OPERATOR = '''
import asyncio
from discord.ext import commands


def object_at(address):
    return None


class Debug(commands.Cog):
    @commands.command()
    async def tasks(self, ctx):
        names = [t.get_name() for t in asyncio.all_tasks()]
        await ctx.send(", ".join(names))

    @commands.command()
    async def cancel_task(self, ctx, address: int):
        task = object_at(address)
        if task is not None:
            task.cancel()
'''

SWEEP = '''
import asyncio


async def stop_named(name):
    for task in asyncio.all_tasks():
        if task.get_name() == name:
            task.cancel()
            await asyncio.sleep(0)
'''

LITERAL_SWEEP = '''
import asyncio
from discord.ext import commands


class Dev(commands.Cog):
    @commands.command()
    async def stoptyping(self, ctx):
        for task in asyncio.all_tasks():
            if task.get_stack(limit=1)[0].f_code.co_name == "do_typing":
                task.cancel()
'''

LISTING_ONLY = '''
import asyncio
from discord.ext import commands


class Debug(commands.Cog):
    @commands.command()
    async def tasks(self, ctx):
        names = [t.get_name() for t in asyncio.all_tasks()]
        await ctx.send(", ".join(names))

    async def cog_unload(self):
        self.loop_task.cancel()
'''


MODAL = '''
import asyncio
from discord import ui


class Rename(ui.Modal, title="Rename"):
    async def on_submit(self, interaction):
        proc = await asyncio.create_subprocess_exec("rename", str(interaction.id))
        await proc.wait()
'''


def scan(files):
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as fh:
                fh.write(text)
        r = subprocess.run([BINARY, "scan", ".", "--no-db", "--no-cache", "--no-progress", "--format", "json"],
                           cwd=d, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise AssertionError("scan exited %d: %s" % (r.returncode, r.stderr))
        return sorted((f["rule"], f["function"]) for f in json.loads(r.stdout)["findings"])


HANDLER_FINDINGS = [("CAN102", "Tools.ping"), ("CAN401", "Tools.on_message")]


class ChatHandlers(unittest.TestCase):
    def test_handlers_alone_are_not_reported(self):
        self.assertEqual(scan({"tools.py": COG}), [])

    def test_operator_cancel_command_makes_them_cancellable(self):
        self.assertEqual(scan({"tools.py": COG, "debug.py": OPERATOR}), HANDLER_FINDINGS)

    def test_all_tasks_sweep_that_cancels_makes_them_cancellable(self):
        self.assertEqual(scan({"tools.py": COG, "ops.py": SWEEP}), HANDLER_FINDINGS)

    def test_a_sweep_that_picks_tasks_by_a_literal_does_not(self):
        self.assertEqual(scan({"tools.py": COG, "dev.py": LITERAL_SWEEP}), [])

    def test_listing_tasks_without_a_cancelling_command_does_not(self):
        # (a cog's own unload cancels its loop task, not a command's task)
        self.assertEqual(scan({"tools.py": COG, "debug.py": LISTING_ONLY}), [])

    def test_component_methods_alone_are_not_reported(self):
        # (a modal's on_submit runs in a task the modal starts: catalog
        # event-base / event-method)
        self.assertEqual(scan({"views.py": MODAL}), [])

    def test_operator_cancel_command_makes_component_methods_cancellable(self):
        self.assertEqual(scan({"views.py": MODAL, "debug.py": OPERATOR}), [("CAN102", "Rename.on_submit")])


if __name__ == "__main__":
    unittest.main()
