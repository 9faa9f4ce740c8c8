#!/usr/bin/env python3
"""Where the store goes without --db (issue 18): at the project root, the
nearest directory at or above the scanned path holding a cancelaudit
configuration or .git, so a scan from a subdirectory uses the project's
store instead of making a second one; the readers (matrix, report, diff)
find it from anywhere in the project; $CANCELAUDIT_DB and --db override.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import os
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

BUG = """\
import asyncio


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task
"""


def run(args, cwd, **env):
    e = dict(os.environ)
    e.pop("CANCELAUDIT_DB", None)
    e.update(env)
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120, env=e)
    return p.returncode, p.stdout, p.stderr


def scans(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM scans WHERE status = 'complete'").fetchone()[0]
    finally:
        con.close()


class StoreLocation(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-where-")
        self.base = os.path.realpath(self._tmp.name)
        self.proj = os.path.join(self.base, "proj")
        for rel in ("pkg/sub/mod.py", "other/x.py"):
            path = os.path.join(self.proj, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(BUG)

    def tearDown(self):
        self._tmp.cleanup()

    def store(self, *parts):
        return os.path.join(self.proj, *parts, ".cancelaudit", "audit.db")

    def test_git_root(self):
        os.mkdir(os.path.join(self.proj, ".git"))
        sub = os.path.join(self.proj, "pkg", "sub")
        rc, _, err = run(["scan", ".", "-q"], sub)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(self.store()), "the store is at the repository root")
        self.assertFalse(os.path.exists(os.path.join(sub, ".cancelaudit")), "no second store in the subdirectory")
        # the scanned path decides, not the shell's directory
        rc, _, err = run(["scan", "proj/other", "-q"], self.base)
        self.assertEqual(scans(self.store()), 2)
        self.assertFalse(os.path.exists(os.path.join(self.base, ".cancelaudit")))
        # a reader from anywhere in the project finds it
        for cwd in (self.proj, sub):
            rc, out, err = run(["matrix", "--format", "json"], cwd)
            self.assertEqual(rc, 0, err)
        rc, out, err = run(["diff", "1", "2"], sub)
        self.assertIn(rc, (0, 1), err)
        # the store's folder ignores itself
        with open(os.path.join(self.proj, ".cancelaudit", ".gitignore")) as f:
            self.assertEqual(f.read(), "*\n")

    def test_configuration_marks_the_root(self):
        os.mkdir(os.path.join(self.base, ".git"))  # the repository is above the project
        with open(os.path.join(self.proj, "pyproject.toml"), "w") as f:
            f.write("[tool.cancelaudit]\nstrict = true\n")
        rc, _, err = run(["scan", "pkg", "-q"], self.proj)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(self.store()))
        self.assertFalse(os.path.exists(os.path.join(self.base, ".cancelaudit")))
        # a pyproject.toml without the table is not ours: the walk goes on to .git
        with open(os.path.join(self.proj, "pyproject.toml"), "w") as f:
            f.write("[tool.black]\nline-length = 100\n")
        rc, _, err = run(["scan", "pkg", "-v"], self.proj)
        self.assertTrue(os.path.exists(os.path.join(self.base, ".cancelaudit", "audit.db")), err)
        self.assertIn("holds .git", err)
        # cancelaudit.toml counts too
        with open(os.path.join(self.proj, "pkg", "cancelaudit.toml"), "w") as f:
            f.write("strict = false\n")
        rc, _, err = run(["scan", "pkg/sub", "-v"], self.proj)
        self.assertTrue(os.path.exists(self.store("pkg")), err)
        self.assertIn("holds cancelaudit.toml", err)

    def test_no_root_current_directory(self):
        rc, _, err = run(["scan", "pkg", "-v"], self.proj)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(self.store()))
        self.assertIn("store: .cancelaudit/audit.db (no cancelaudit configuration or .git above it", err)

    def test_overrides(self):
        os.mkdir(os.path.join(self.proj, ".git"))
        env_db = os.path.join(self.base, "env", "audit.db")
        rc, _, err = run(["scan", "pkg", "-v"], self.proj, CANCELAUDIT_DB=env_db)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.exists(env_db))
        self.assertIn("from $CANCELAUDIT_DB", err)
        self.assertFalse(os.path.exists(self.store()))
        rc, out, err = run(["matrix", "-v"], os.path.join(self.proj, "pkg"), CANCELAUDIT_DB=env_db)
        self.assertEqual(rc, 0, err)
        flag_db = os.path.join(self.base, "flag.db")
        rc, _, err = run(["scan", "pkg", "-v", "--db", flag_db], self.proj, CANCELAUDIT_DB=env_db)
        self.assertTrue(os.path.exists(flag_db))
        self.assertIn("(--db)", err)
        self.assertEqual(scans(env_db), 1)
        # a reader with nothing there says where it looked
        rc, _, err = run(["matrix"], self.base)
        self.assertEqual(rc, 2)
        self.assertIn("no database at .cancelaudit/audit.db", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
