#!/usr/bin/env python3
"""Store tests through the command line (DESIGN §5): every scan is a row in
`scans`, marked complete; its findings are queryable with the sqlite3 CLI
and with Python's sqlite3 module; the default database lives in
`.cancelaudit/audit.db` under the current directory, in a folder with its
own `.gitignore`; `--no-db` writes nothing; `matrix` reads a stored scan.

Standard library only (the sqlite3 CLI is used when installed).

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory).
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))
SQLITE3 = shutil.which("sqlite3")

# CAN102 at line 8 (task unowned across the lock), CAN101 at line 15.
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
EXPECTED = [("CAN101", "src/bug.py", 15), ("CAN102", "src/bug.py", 8)]


def run(args, cwd):
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True,
                       encoding="utf-8", errors="replace", timeout=120)
    if p.returncode < 0:
        raise AssertionError("killed by signal %d: %s\n%s" % (-p.returncode, args, p.stderr))
    return p.returncode, p.stdout, p.stderr


def sqlite_cli(db, sql):
    p = subprocess.run([SQLITE3, "-batch", "-separator", "|", db, sql], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise AssertionError("sqlite3 %s: %s" % (sql, p.stderr))
    return [l.split("|") for l in p.stdout.splitlines() if l]


class Store(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-store-")
        self.root = self._tmp.name
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "bug.py"), "w", encoding="utf-8") as f:
            f.write(BUG)

    def tearDown(self):
        self._tmp.cleanup()

    def scan(self, *args):
        rc, out, err = run(["scan", "src", "--format", "json", "--no-progress"] + list(args), self.root)
        self.assertEqual(rc, 1, err)
        return json.loads(out)

    def test_two_scans_two_rows(self):
        db = os.path.join(self.root, "audit.db")
        a = self.scan("--db", db)
        b = self.scan("--db", "audit.db")  # the same file, named relative to the cwd
        self.assertTrue(isinstance(a["scan"]["id"], int) and isinstance(b["scan"]["id"], int))
        self.assertNotEqual(a["scan"]["id"], b["scan"]["id"])

        con = sqlite3.connect(db)
        try:
            rows = con.execute("SELECT id, status, finished, version FROM scans ORDER BY id").fetchall()
            self.assertEqual([r[0] for r in rows], [a["scan"]["id"], b["scan"]["id"]])
            for _, status, finished, version in rows:
                self.assertEqual(status, "complete")
                self.assertTrue(finished)
                self.assertTrue(version)
            for sid in (a["scan"]["id"], b["scan"]["id"]):
                got = sorted(con.execute("SELECT rule, path, line FROM scan_findings WHERE scan_id=?", (sid,)).fetchall())
                self.assertEqual(got, EXPECTED)
                files = con.execute("SELECT path FROM scan_files WHERE scan_id=?", (sid,)).fetchall()
                self.assertEqual(files, [("src/bug.py",)])
            # the JSON fingerprints are the stored ones
            fps = {r[0] for r in con.execute("SELECT fingerprint FROM scan_findings WHERE scan_id=?", (b["scan"]["id"],))}
            self.assertEqual(fps, {f["fingerprint"] for f in b["findings"]})
            self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        finally:
            con.close()

        if SQLITE3:
            self.assertEqual(sqlite_cli(db, "SELECT count(*) FROM scans;"), [["2"]])
            self.assertEqual(sqlite_cli(db, "SELECT DISTINCT status FROM scans;"), [["complete"]])
            got = sqlite_cli(db, "SELECT rule, path, line FROM scan_findings WHERE scan_id=%d ORDER BY rule;"
                             % b["scan"]["id"])
            self.assertEqual([tuple(r[:2]) + (int(r[2]),) for r in got], EXPECTED)
        else:
            sys.stderr.write("note: sqlite3 CLI not installed; queried with the Python module only\n")

    def test_default_db_location(self):
        self.scan()
        folder = os.path.join(self.root, ".cancelaudit")
        self.assertTrue(os.path.isfile(os.path.join(folder, "audit.db")))
        with open(os.path.join(folder, ".gitignore"), encoding="utf-8") as f:
            self.assertIn("*", [l.strip() for l in f.read().splitlines()])
        self.scan()
        con = sqlite3.connect(os.path.join(folder, "audit.db"))
        try:
            self.assertEqual(con.execute("SELECT count(*) FROM scans WHERE status='complete'").fetchone()[0], 2)
        finally:
            con.close()
        # nothing else was written next to the scanned tree
        self.assertEqual(sorted(os.listdir(self.root)), [".cancelaudit", "src"])

    def test_default_db_keeps_git_clean(self):
        git = shutil.which("git")
        self.assertIsNotNone(git, "git not installed: run scripts/bootstrap.sh")
        env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        subprocess.run([git, "init", "-q", "."], cwd=self.root, check=True, env=env)
        self.scan()
        st = subprocess.run([git, "status", "--porcelain", "--untracked-files=all"], cwd=self.root,
                            capture_output=True, text=True, env=env, check=True).stdout
        self.assertNotIn(".cancelaudit", st)

    def test_no_db_writes_nothing(self):
        before = sorted(os.listdir(self.root))
        a = self.scan("--no-db")
        self.assertIsNone(a["scan"]["id"])
        self.assertEqual(sorted(os.listdir(self.root)), before)
        self.assertFalse(os.path.exists(os.path.join(self.root, ".cancelaudit")))

    def test_matrix_after_scan(self):
        self.scan("--db", "x.db")
        rc, out, err = run(["matrix", "--db", "x.db"], self.root)
        self.assertEqual(rc, 0, err)
        rc, out, err = run(["matrix", "--db", os.path.join(self.root, "x.db")], self.root)
        self.assertEqual(rc, 0, err)


if __name__ == "__main__":
    if not os.access(BINARY, os.X_OK):
        sys.stderr.write("cancelaudit binary not found: %s\n" % BINARY)
        sys.exit(1)
    unittest.main(verbosity=2)
