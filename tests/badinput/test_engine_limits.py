#!/usr/bin/env python3
"""A bound of the engine that is hit says so (engine.h, ENG_LIMIT_*).

A function whose alias chain is longer than the engine follows (more than
ENG_REL_MATRIX_MAX variables, so "does x own v" is a bounded search of
ENG_OWNER_STEPS steps) gets a per-function diagnostic naming the function,
on stderr and in the store's file row; the scan goes on and the exit code
is that of its findings. A function under the bounds gets none.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))


def chain(n):
    lines = ["async def chained(path):", "    v0 = open(path)"]
    lines += ["    v%d = [v%d]" % (i, i - 1) for i in range(1, n + 1)]
    lines += ["    v%d.close()" % n, "    await g()", ""]
    return "\n".join(lines)


class EngineLimits(unittest.TestCase):
    def scan(self, src):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "m.py"), "w") as f:
                f.write(src)
            db = os.path.join(d, "a.db")
            p = subprocess.run([BINARY, "scan", "m.py", "--db", db, "--no-progress"], cwd=d,
                               capture_output=True, text=True)
            con = sqlite3.connect(db)
            rows = con.execute("SELECT diagnostic FROM latest_files WHERE path = 'm.py'").fetchall()
            con.close()
            return p, rows

    def test_owner_search_limit_is_reported(self):
        p, rows = self.scan(chain(5000))
        self.assertLess(p.returncode, 2, p.stderr)
        want = "analysis limit in chained (line 1): an ownership search stopped after 4096 steps"
        self.assertIn("m.py: " + want, p.stderr)
        self.assertEqual(len(rows), 1)
        self.assertIn(want, rows[0][0] or "")

    def test_under_the_bounds_no_diagnostic(self):
        p, rows = self.scan(chain(300))
        self.assertNotIn("analysis limit", p.stderr)
        self.assertEqual(rows, [(None,)])


if __name__ == "__main__":
    unittest.main()
