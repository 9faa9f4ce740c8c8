#!/usr/bin/env python3
"""per-file-ignores (issue 18): ruff's table from globs to the rules their
files leave out. Globs match as exclude globs do (with '/': relative to the
configuration file; without: any path component), rules are ids or
prefixes; the findings left out are gone from the output, the counts, the
exit code and the store, and a rescan never reuses results filtered under
another table.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# one CAN102 (line 8) and one CAN101 (line 15)
BUG = """\
import asyncio
import aiohttp


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task


async def fetch(url):
    session = aiohttp.ClientSession()
    try:
        resp = await session.get(url)
    except Exception:
        await session.close()
        raise
    return session, resp
"""

FILES = ("src/app.py", "src/tests/test_app.py", "tests/helpers.py", "tests/unit/test_x.py", "legacy/old.py")


def run(args, cwd):
    env = dict(os.environ)
    env.pop("CANCELAUDIT_DB", None)
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr


class PerFileIgnores(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-pfi-")
        self.root = self._tmp.name
        for rel in FILES:
            self.write(rel, BUG)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def config(self, table):
        self.write("pyproject.toml", "[tool.cancelaudit.per-file-ignores]\n" + table)

    def found(self, *args, cwd=None):
        rc, out, err = run(["scan", "--format", "json", "--no-progress"] + list(args), cwd or self.root)
        self.assertIn(rc, (0, 1), err)
        doc = json.loads(out)
        return rc, sorted((f["path"], f["rule"]) for f in doc["findings"])

    def test_globs_and_rules(self):
        self.config('"tests" = ["CAN"]\n'           # a directory name, anywhere
                    '"test_*.py" = ["CAN101"]\n'    # a file name, anywhere
                    '"legacy/*" = "CAN102"\n')      # relative to pyproject.toml; a comma string works
        _, got = self.found(".", "--no-db")
        self.assertEqual(got, [
            ("legacy/old.py", "CAN101"),
            ("src/app.py", "CAN101"), ("src/app.py", "CAN102"),
        ])

    def test_prefix_and_exit_code(self):
        self.config('"*.py" = ["CAN1"]\n')
        rc, got = self.found(".", "--no-db")
        self.assertEqual((rc, got), (0, []))
        rc, out, _ = run(["scan", ".", "--no-db", "--format", "concise"], self.root)
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("0 findings in 5 files"), out)

    def test_relative_to_the_configuration_file(self):
        self.config('"src/tests/*" = ["CAN"]\n')
        _, from_root = self.found("src", "--no-db")
        _, from_src = self.found(".", "--no-db", cwd=os.path.join(self.root, "src"))
        self.assertEqual([p for p, _ in from_root if "tests" in p], [])
        self.assertEqual([p for p, _ in from_src if "tests" in p], [])
        self.assertEqual(len(from_root), 2)
        self.assertEqual(len(from_src), 2)

    def test_not_stored_and_not_reused_stale(self):
        db = os.path.join(self.root, "audit.db")
        self.config('"tests" = ["CAN"]\n')
        _, first = self.found(".", "--db", db)
        con = sqlite3.connect(db)
        stored = con.execute("SELECT count(*) FROM latest_findings WHERE path LIKE 'tests/%'").fetchone()[0]
        con.close()
        self.assertEqual(stored, 0)
        # the same files, another table: the filtered-out findings come back, not the stored results
        self.config('"legacy" = ["CAN"]\n')
        _, second = self.found(".", "--db", db)
        self.assertIn(("tests/helpers.py", "CAN101"), second)
        self.assertNotIn("legacy/old.py", [p for p, _ in second])
        # no table: everything, as a scan without one
        os.remove(os.path.join(self.root, "pyproject.toml"))
        _, third = self.found(".", "--db", db)
        _, fresh = self.found(".", "--no-db")
        self.assertEqual(third, fresh)
        self.assertEqual(len(fresh), 2 * len(FILES))

    def test_errors(self):
        self.config('"tests" = ["CNA101"]\n')
        rc, _, err = run(["scan", ".", "--no-db"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("unknown rule 'CNA101' in 'per-file-ignores.\"tests\"' (did you mean 'CAN101'?)", err)
        self.assertIn("pyproject.toml:2:", err)
        self.write("pyproject.toml", '[tool.cancelaudit]\nper-file-ignores = ["tests"]\n')
        rc, _, err = run(["scan", ".", "--no-db"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("'per-file-ignores' must be a table", err)
        self.write("pyproject.toml", '[tool.cancelaudit]\nper_file_ignores = {}\n')
        rc, _, err = run(["scan", ".", "--no-db"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("did you mean 'per-file-ignores'?", err)

    def test_verbose_lists_them(self):
        self.config('"tests" = ["CAN1", "CAN3"]\n')
        _, _, err = run(["scan", ".", "--no-db", "-v"], self.root)
        self.assertIn("cancelaudit: per-file-ignores: tests leaves out CAN1,CAN3", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
