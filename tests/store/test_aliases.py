#!/usr/bin/env python3
"""One finding per window (issue 18) against what an older release stored.

fixtures/schema_v4.sql is a store that cancelaudit 0.1.0 wrote at schema
version 4 from TREE below, where two windows of two resources each were two
findings apiece; fixtures/baseline_v4.json is the baseline that release
wrote for it. This build opens both:

  - the migration to schema 5 keeps every old row, and the old findings
    read as high confidence with no resource list;
  - a new scan of the same tree has one finding per window, each resource
    carrying as its alias the fingerprint the old store has for it
    (scan_fingerprint_aliases), and its confidence;
  - `diff` between the old scan and the new one, either way round: nothing
    new, nothing fixed;
  - the old baseline hides every merged finding, unless one of a window's
    resources is missing from it (then the window is reported: a resource
    that joined it since is new);
  - `report --finding` takes an old per-resource fingerprint;
  - the inline suppression on the shared checkpoint's line still suppresses;
  - the resource lists, aliases and confidences come back from the store as
    they went in: through `diff --format json`, a rescan that reuses the
    unchanged file, and `merge`.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.environ.get("CA_SOURCE_DIR", os.getcwd()))
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# src/shells.py of the fixture store, byte for byte
TREE = """\
import asyncio
import os

import aiohttp


class Shell:
    async def start(self, url):
        session = aiohttp.ClientSession()
        pump = asyncio.create_task(self._pump())
        try:
            ws = await session.ws_connect(url)
        except Exception:
            pump.cancel()
            await session.close()
            raise
        self._entries[url] = (session, pump, ws)

    async def spawn(self, key):
        reader = asyncio.create_task(self._pump())
        writer = asyncio.create_task(self._pump())
        async with self._lock:
            self._tasks[key] = (reader, writer)

    async def quiet(self, key):
        a = asyncio.create_task(self._pump())
        b = asyncio.create_task(self._pump())
        await asyncio.sleep(0)  # noqa: CAN102
        self._tasks[key] = (a, b)

    async def single(self, url):
        session = aiohttp.ClientSession()
        await asyncio.sleep(1)
        self._session = session

    async def _pump(self):
        await asyncio.sleep(0)
"""

# (rule, line) -> the resources of the window, in the order they came into being
WINDOWS = {("CAN101", 12): ["session", "pump"], ("CAN102", 22): ["reader", "writer"],
           ("CAN102", 28): ["a", "b"], ("CAN102", 33): ["session"]}


def schema_version():
    with open(os.path.join(SOURCE_DIR, "analyzer", "store", "store.h")) as f:
        return int(re.search(r"#define STORE_SCHEMA_VERSION (\d+)", f.read()).group(1))


def run(args, cwd):
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)
    if p.returncode < 0:
        raise AssertionError("killed by signal %d: %s\n%s" % (-p.returncode, args, p.stderr))
    return p


def query(db, sql, args=()):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


class Aliases(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-alias-")
        self.root = self._tmp.name
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "shells.py"), "w") as f:
            f.write(TREE)
        # older than any scan, so that a rescan may reuse it without reading it
        os.utime(os.path.join(self.root, "src", "shells.py"), (1e9, 1e9))
        os.utime(os.path.join(self.root, "src"), (1e9, 1e9))
        self.db = os.path.join(self.root, "v4.db")
        with open(os.path.join(FIXTURES, "schema_v4.sql")) as f:
            sql = f.read()
        con = sqlite3.connect(self.db)
        con.executescript(sql)
        con.commit()
        con.close()
        # the old release's per-resource findings: (rule, line, resource) -> fingerprint
        self.old = {(r, l, res): fp for r, l, res, fp in
                    query(self.db, "SELECT rule, line, resource, fingerprint FROM findings WHERE scan_id = 1")}
        self.assertEqual(len(self.old), 7)

    def tearDown(self):
        self._tmp.cleanup()

    def scan(self, *extra, rc=(1,)):
        p = run(["scan", "src", "--db", self.db, "--no-progress", "--format", "json"] + list(extra), self.root)
        self.assertIn(p.returncode, rc, p.stderr)
        return json.loads(p.stdout)

    def test_migration_and_one_finding_per_window(self):
        doc = self.scan()
        self.assertEqual(query(self.db, "PRAGMA user_version"), [(schema_version(),)])
        self.assertEqual(query(self.db, "PRAGMA integrity_check"), [("ok",)])
        self.assertEqual(query(self.db, "PRAGMA foreign_key_check"), [])
        # the old rows are all there, unchanged, and read as high confidence without a resource list
        self.assertEqual(query(self.db, "SELECT count(*) FROM findings WHERE scan_id = 1"), [(7,)])
        self.assertEqual(query(self.db, "SELECT DISTINCT confidence FROM findings WHERE scan_id = 1"), [(None,)])
        self.assertEqual(query(self.db, "SELECT DISTINCT confidence FROM scan_findings WHERE scan_id = 1"),
                         [("high",)])
        self.assertEqual(query(self.db, "SELECT count(*) FROM scan_fingerprint_aliases WHERE scan_id = 1"), [(0,)])
        # the new scan: one finding per window, every resource named
        got = {(f["rule"], f["line"]): f for f in doc["findings"]}
        self.assertEqual({k: f["resources"] for k, f in got.items()}, WINDOWS)
        for (rule, line), f in got.items():
            self.assertEqual(f["resource"], f["resources"][0])
            # each resource's alias is the fingerprint the old release gave its own finding
            self.assertEqual(f["fingerprint_aliases"], [self.old[(rule, line, r)] for r in f["resources"]])
            self.assertNotIn(f["fingerprint"], self.old.values())
            self.assertEqual(f["confidence"], "high")
        self.assertEqual(got[("CAN101", 12)]["acquired_lines"], [9, 10])
        self.assertIn("`session` (session, acquired line 9) and `pump` (task, acquired line 10) are unowned",
                      got[("CAN101", 12)]["message"])
        self.assertIn("releases them if the task is cancelled here, and nothing registered them yet",
                      got[("CAN102", 22)]["message"])
        # the inline suppression on the shared checkpoint suppresses the window
        self.assertTrue(got[("CAN102", 28)]["suppressed"])
        self.assertFalse(any(f["suppressed"] for k, f in got.items() if k != ("CAN102", 28)))
        # the store has them: aliases by scan, confidence per finding
        new = query(self.db, "SELECT max(id) FROM scans")[0][0]
        aliases = query(self.db, "SELECT alias FROM scan_fingerprint_aliases WHERE scan_id = ?", (new,))
        self.assertEqual(sorted(a for (a,) in aliases), sorted(self.old.values()))
        self.assertEqual(query(self.db, "SELECT DISTINCT confidence FROM latest_findings"), [("high",)])

    def test_diff_old_and_new_scans(self):
        self.scan()
        for old, new in (("1", "2"), ("2", "1")):
            with self.subTest(old=old, new=new):
                p = run(["diff", "--db", self.db, "--format", "json", old, new], self.root)
                self.assertEqual(p.returncode, 0, p.stderr)
                d = json.loads(p.stdout)
                self.assertEqual((d["summary"]["new"], d["summary"]["fixed"]), (0, 0), d["summary"])
                # suppressed findings take no part: the old scan has 5 unsuppressed, the new 3
                self.assertEqual(d["summary"]["unchanged"], 3 if new == "2" else 5)
        p = run(["diff", "--db", self.db, "1", "2"], self.root)
        self.assertEqual(p.stdout.splitlines()[0], "scan 1 -> scan 2: 0 new, 0 fixed, 3 unchanged")

    def test_diff_sees_a_resource_that_joined_a_window(self):
        """A window with a resource the old scan did not have is new; its old findings are not fixed."""
        with open(os.path.join(self.root, "src", "shells.py"), "w") as f:
            f.write(TREE.replace("        writer = asyncio.create_task(self._pump())\n",
                                 "        writer = asyncio.create_task(self._pump())\n"
                                 "        extra = asyncio.create_task(self._pump())\n", 1)
                    .replace("(reader, writer)", "(reader, writer, extra)"))
        self.scan()
        p = run(["diff", "--db", self.db, "--format", "json", "1", "2"], self.root)
        self.assertEqual(p.returncode, 1, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual([f["resources"] for f in d["new"]], [["reader", "writer", "extra"]])
        self.assertEqual(d["fixed"], [])

    def test_old_baseline_keeps_matching(self):
        base = os.path.join(FIXTURES, "baseline_v4.json")
        doc = self.scan("--baseline", base, rc=(0,))
        self.assertEqual(doc["scan"]["baselined"], 3)
        self.assertEqual([(f["rule"], f["line"]) for f in doc["findings"]], [("CAN102", 28)])  # the suppressed one
        p = run(["scan", "src", "--db", self.db, "--no-progress", "--baseline", base], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("; 3 baselined; 1 suppressed", p.stdout)

    def test_old_baseline_missing_one_resource(self):
        with open(os.path.join(FIXTURES, "baseline_v4.json")) as f:
            base = json.load(f)
        pump = self.old[("CAN101", 12, "pump")]
        base["fingerprints"].remove(pump)
        base["findings"] = [f for f in base["findings"] if f["fingerprint"] != pump]
        path = os.path.join(self.root, "partial.json")
        with open(path, "w") as f:
            json.dump(base, f)
        doc = self.scan("--baseline", path)
        self.assertEqual(doc["scan"]["baselined"], 2)
        self.assertEqual([(f["rule"], f["line"]) for f in doc["findings"] if not f["suppressed"]], [("CAN101", 12)])

    def test_new_baseline(self):
        path = os.path.join(self.root, "b.json")
        p = run(["baseline", "src", "--output", path], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(path) as f:
            base = json.load(f)
        self.assertEqual(base["schema_version"], 2)
        self.assertEqual(len(base["fingerprints"]), 3)
        self.assertEqual(sorted(f["resources"] for f in base["findings"]),
                         [["reader", "writer"], ["session"], ["session", "pump"]])
        self.scan("--baseline", path, rc=(0,))

    def test_report_takes_an_old_fingerprint(self):
        self.scan()
        old = self.old[("CAN101", 12, "pump")]
        p = run(["report", "--db", self.db, "--finding", old[:8]], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("`Shell.start` leaks `session` and `pump` when cancelled before registration", p.stdout)
        new = [f for f in self.scan()["findings"] if f["line"] == 12][0]["fingerprint"]
        self.assertIn("Findings (rule, resources, fingerprint): CAN101 `session`, `pump` `%s`" % new, p.stdout)

    def test_round_trip_through_the_store(self):
        doc = self.scan()
        want = {(f["rule"], f["line"]): (f["resources"], f["acquired_lines"], f["fingerprint_aliases"],
                                         f["confidence"], f["fingerprint"]) for f in doc["findings"]}

        def stored(scan):
            p = run(["diff", "--db", self.db, "--format", "json", scan, scan], self.root)
            self.assertEqual(p.returncode, 0, p.stderr)
            return {(f["rule"], f["line"]): (f["resources"], f["acquired_lines"], f["fingerprint_aliases"],
                                             f["confidence"], f["fingerprint"])
                    for f in json.loads(p.stdout)["unchanged"]}

        unsuppressed = {k: v for k, v in want.items() if k != ("CAN102", 28)}
        self.assertEqual(stored("2"), unsuppressed)
        # a rescan in which nothing changed shares the rows; one after another file changed reuses this file's
        again = self.scan()
        self.assertEqual(query(self.db, "SELECT rows_of FROM scans WHERE id = 3"), [(2,)])
        with open(os.path.join(self.root, "src", "other.py"), "w") as f:
            f.write("async def other():\n    pass\n")
        third = self.scan()
        for d in (again, third):
            self.assertEqual({(f["rule"], f["line"]): (f["resources"], f["acquired_lines"], f["fingerprint_aliases"],
                                                       f["confidence"], f["fingerprint"]) for f in d["findings"]},
                             want)
        self.assertEqual(query(self.db, "SELECT status FROM scan_files WHERE scan_id = 4 AND path = 'src/shells.py'"),
                         [("cached",)])
        self.assertEqual(stored("4"), unsuppressed)
        # a merge copies them
        out = os.path.join(self.root, "merged.db")
        p = run(["merge", out, self.db], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(a for (a,) in query(out, "SELECT alias FROM latest_fingerprint_aliases")),
                         sorted(self.old.values()))
        self.assertEqual(query(out, "SELECT DISTINCT confidence FROM latest_findings"), [("high",)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
