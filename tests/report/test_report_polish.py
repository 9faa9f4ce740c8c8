#!/usr/bin/env python3
"""The issue report and the matrix as a maintainer reads them (issue 18):

- two bugs whose fix is the same change (one handler to widen, in one
  function) get one suggested-fix bullet naming every resource;
- a gap whose line lies in a helper the boundary calls says "via" that
  helper and points at the helper's line, in the text and Markdown matrix
  and in the report's table of other backends;
- the debug information names what parsed the code and the git revision,
  or why there is none.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import os
import re
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# north: one handler misses cancellation for three resources that become
# live at two different awaits (two bugs, one fix); its open_shell's other
# gap lies in a helper (_spawn). south: covered.
NORTH = """\
import asyncio
import aiohttp


class NorthProvider:
    def __init__(self):
        self._lock = asyncio.Lock()
        self._shells = {}

    async def open_session(self, url):
        entry = object()
        session = aiohttp.ClientSession()
        try:
            ws = await session.ws_connect(url)
            await ws.receive_str()
        except Exception:
            await session.close()
            await ws.close()
            self._discard(entry)
            raise
        return entry, session, ws

    async def open_shell(self, key):
        return await self._spawn(key)

    async def _spawn(self, key):
        proc = await asyncio.create_subprocess_exec("sh")
        async with self._lock:
            self._shells[key] = proc
        return proc
"""

SOUTH = """\
import asyncio
import aiohttp


class SouthProvider:
    async def open_session(self, url):
        async with aiohttp.ClientSession() as session:
            return await session.get(url)

    async def open_shell(self, key):
        proc = await asyncio.create_subprocess_exec("sh")
        try:
            await asyncio.sleep(0)
        except BaseException:
            proc.kill()
            raise
        return proc
"""


def run(args, cwd, ok=(0, 1)):
    env = dict(os.environ)
    env.pop("CANCELAUDIT_DB", None)
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120, env=env)
    if p.returncode not in ok:
        raise AssertionError("%s: exit %d\n%s" % (args, p.returncode, p.stderr))
    return p


class ReportPolish(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="ca-polish-")
        cls.root = cls._tmp.name
        for name, text in (("north", NORTH), ("south", SOUTH)):
            os.makedirs(os.path.join(cls.root, "providers", name))
            with open(os.path.join(cls.root, "providers", name, "provider.py"), "w") as f:
                f.write(text)
        run(["scan", "providers", "--db", "audit.db", "-q"], cls.root)
        cls.report = run(["report", "--db", "audit.db", "--backend", "north"], cls.root, ok=(0,)).stdout

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def section(self, title):
        return self.report.split("## " + title + "\n", 1)[1].split("\n## ", 1)[0]

    def test_one_bullet_per_fix(self):
        fixes = self.section("Suggested fix")
        bullets = [l for l in fixes.splitlines() if l.startswith("- ")]
        can101 = [b for b in bullets if "NorthProvider.open_session" in b and "make the cleanup" in b]
        self.assertEqual(len(can101), 1, fixes)
        for res in ("`session`", "`ws`"):
            self.assertIn(res, can101[0])
        # no two bullets say the same thing about different resources
        shapes = [re.sub(r"`[^`]*`", "`x`", b) for b in bullets]
        self.assertEqual(len(shapes), len(set(shapes)), fixes)
        # the bugs themselves are still described one by one
        self.assertGreaterEqual(self.section("Describe the bug").count("\n### "), 2)

    def test_helper_named(self):
        md = run(["matrix", "--db", "audit.db", "--format", "markdown"], self.root, ok=(0,)).stdout
        gap = [l for l in md.splitlines() if l.startswith("- north `open_shell`")]
        self.assertEqual(len(gap), 1, md)
        self.assertIn("in `NorthProvider.open_shell` via `NorthProvider._spawn`", gap[0])
        helper_line = NORTH.splitlines().index("        async with self._lock:") + 1
        self.assertIn("provider.py:%d" % helper_line, gap[0])
        text = run(["matrix", "--db", "audit.db"], self.root, ok=(0,)).stdout
        self.assertRegex(text, r"providers/north/provider\.py:%d: north open_shell: CAN102 in "
                               r"NorthProvider\.open_shell via NorthProvider\._spawn" % helper_line)
        self.assertIn("(via `NorthProvider._spawn`)", self.report)

    def test_debug_information(self):
        debug = self.section("Debug information")
        self.assertRegex(debug, r"Found by static analysis with cancelaudit \d+\.\d+\.\d+")
        self.assertRegex(debug, r"Python parsed with: tree-sitter-python \d+\.\d+\.\d+ \(ABI \d+\), tree-sitter \S+")
        self.assertIn("Git revision: none recorded (the scanned path was not in a git checkout", debug)
        self.assertNotIn("None", debug)
        # in a checkout, the revision
        subprocess.run(["git", "init", "-q"], cwd=self.root, check=True)
        subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m",
                        "x"], cwd=self.root, check=True)
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=self.root, capture_output=True, text=True).stdout.strip()
        # a scanned file (not a directory) is in the checkout too
        run(["scan", "providers/north/provider.py", "--db", "file.db", "-q"], self.root)
        rep = run(["report", "--db", "file.db", "--backend", "north"], self.root, ok=(0,)).stdout
        self.assertIn("Git revision: `%s`" % rev, rep)


if __name__ == "__main__":
    unittest.main(verbosity=2)
