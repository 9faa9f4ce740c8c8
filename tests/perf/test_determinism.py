#!/usr/bin/env python3
"""The number of workers never shows in the results (issue 6, DESIGN §9).

The same tree — the corpus, plus generated files with cross-file calls,
syntax errors, files the prefilter skips and files that cannot be read — is
scanned with --jobs 1, 2, 3 and 8, each into a fresh database. Everything a
user or a later command can see must be identical: the exit code, stdout in
text and JSON, stderr (per-file diagnostics come in path order), and every
row of the database except what is about time, the process or the command
line (scans.started/started_ns/finished/pid/host/boot_id/args, files.parse_ms).

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

JOBS = [1, 2, 3, 8]

# Columns that legitimately differ between two scans of the same tree.
VOLATILE = {
    "scans": {"started", "started_ns", "finished", "pid", "host", "boot_id", "args"},
    "files": {"parse_ms"},
}

HELPER = """\
import asyncio


def finish_{i}(s):
    s.close()


async def settle_{i}(t):
    await asyncio.sleep(0)
    return t
"""

CALLER = """\
import asyncio
import aiohttp
from helpers_{k} import finish_{k}


class Backend{i}:
    async def open_session(self, key):
        session = aiohttp.ClientSession()
        finish_{k}(session)
        await asyncio.sleep(1)
        task = asyncio.create_task(self.work())
        async with self._lock:
            self._tasks[key] = task

    async def close(self):
        sess = self._sessions.pop(0)
        await sess.close()


async def fetch_{i}(url):
    session = aiohttp.ClientSession()
    try:
        return await session.get(url)
    except Exception:
        await session.close()
        raise
"""


def make_tree(root):
    tree = os.path.join(root, "tree")
    corpus = os.path.join(SOURCE_DIR, "corpus")
    if os.path.isdir(corpus):
        shutil.copytree(corpus, os.path.join(tree, "corpus"))
    gen = os.path.join(tree, "gen")
    os.makedirs(gen)
    for i in range(12):
        with open(os.path.join(gen, "helpers_%d.py" % i), "w") as f:
            f.write(HELPER.format(i=i))
    for i in range(60):
        with open(os.path.join(gen, "backend_%02d.py" % i), "w") as f:
            f.write(CALLER.format(i=i, k=i % 12))
    for i in range(40):
        with open(os.path.join(gen, "plain_%02d.py" % i), "w") as f:
            f.write("def f(x):\n    return x + %d\n" % i)
    with open(os.path.join(gen, "broken.py"), "w") as f:
        f.write("async def broken(:\n    await x(\n")
    with open(os.path.join(gen, "deep.py"), "w") as f:
        f.write("async def deep():\n    return " + "(" * 5000 + ")" * 5000 + "\n")
    return tree


def dump_db(path):
    con = sqlite3.connect(path)
    try:
        out = {}
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for t in tables:
            cols = [r[1] for r in con.execute("PRAGMA table_info(%s)" % t)]
            keep = [c for c in cols if c not in VOLATILE.get(t, set())]
            order = "id" if "id" in cols else ", ".join(cols)
            out[t] = (keep, con.execute("SELECT %s FROM %s ORDER BY %s" % (
                ", ".join('"%s"' % c for c in keep), t, order)).fetchall())
        return out
    finally:
        con.close()


def scan(cwd, db, jobs, fmt):
    p = subprocess.run([BINARY, "scan", "tree", "--db", db, "--jobs", str(jobs), "--format", fmt,
                        "--no-progress"], cwd=cwd, capture_output=True, timeout=300)
    if p.returncode < 0 or p.returncode > 1:
        raise AssertionError("scan --jobs %d exited %d: %s" % (jobs, p.returncode, p.stderr.decode(errors="replace")))
    return p.returncode, p.stdout, p.stderr


class Determinism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-determinism-")
        make_tree(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_output_and_database_do_not_depend_on_jobs(self):
        runs = {}
        for j in JOBS:
            db = os.path.join(self.tmp, "j%d.db" % j)
            text = scan(self.tmp, db, j, "text")
            js = scan(self.tmp, os.path.join(self.tmp, "j%d-json.db" % j), j, "json")
            runs[j] = (text, js, dump_db(db))
        base_text, base_json, base_db = runs[JOBS[0]]
        self.assertIn(b"CAN1", base_text[1], "the tree should produce findings")
        self.assertTrue(base_text[2], "the tree should produce per-file diagnostics")
        for j in JOBS[1:]:
            text, js, db = runs[j]
            self.assertEqual(text, base_text, "text output, stderr or exit code differ with --jobs %d" % j)
            self.assertEqual(js, base_json, "JSON output differs with --jobs %d" % j)
            self.assertEqual(sorted(db), sorted(base_db))
            for table in base_db:
                self.assertEqual(db[table], base_db[table], "table %s differs with --jobs %d" % (table, j))

    def test_rows_are_complete(self):
        db = os.path.join(self.tmp, "rows.db")
        scan(self.tmp, db, 2, "text")
        con = sqlite3.connect(db)
        try:
            statuses = dict(con.execute("SELECT status, count(*) FROM files GROUP BY status").fetchall())
            self.assertGreaterEqual(statuses.get("skipped", 0), 40)  # the prefilter's files are recorded
            self.assertGreaterEqual(statuses.get("analyzed", 0), 72)
            self.assertEqual(con.execute("SELECT count(*) FROM functions WHERE facts IS NULL").fetchone()[0], 0)
            self.assertEqual(con.execute("SELECT count(*) FROM files WHERE status = 'analyzed' AND deps IS NULL")
                             .fetchone()[0], 0)
        finally:
            con.close()


if __name__ == "__main__":
    if not os.path.exists(BINARY):
        print("no analyzer binary at %s" % BINARY)
        sys.exit(1)
    unittest.main(verbosity=2)
