#!/usr/bin/env python3
"""Incremental rescans (issue 6, DESIGN §9): an unchanged file reuses the
results stored by the last complete scan with the same tool build and
options, without being parsed; everything else is analysed again; and the
results are always those of a full scan of the same tree.

Each case scans a tree into one database (warm), then scans the same tree
with --no-cache into a fresh database (cold), and checks that the two agree
on findings, matrix and function rows, and that the warm scan reused
exactly the files it should have (files.status = 'cached').

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# a.py hands its session to b.finish before the await: whether that is a
# finding depends on what finish does, in another file.
A = """\
import asyncio
import aiohttp
from b import finish


async def run(host):
    session = aiohttp.ClientSession()
    finish(session)
    await asyncio.sleep(1)
    await session.close()
    return host
"""
B_RELEASES = "def finish(s):\n    s.close()\n\n\nasync def other():\n    pass\n"
B_KEEPS = "def finish(s):\n    print(s)\n\n\nasync def other():\n    pass\n"
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
PLAIN = "def f(x):\n    return x\n"

# The store as the first release wrote it (schema version 1), for the migration test.
SCHEMA_V1 = [
    "CREATE TABLE scans ( id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, started_ns INTEGER, finished TEXT, root TEXT, git_rev TEXT, version TEXT NOT NULL, args TEXT, status TEXT NOT NULL CHECK (status IN ('running', 'complete')), pid INTEGER, host TEXT, boot_id TEXT, files_scanned INTEGER NOT NULL DEFAULT 0, files_skipped INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0, baselined INTEGER NOT NULL DEFAULT 0, findings_count INTEGER NOT NULL DEFAULT 0);",
    "CREATE TABLE files ( id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE, path TEXT NOT NULL, size INTEGER, mtime_ns INTEGER, hash TEXT, parse_errors INTEGER, parse_ms REAL, status TEXT NOT NULL, diagnostic TEXT, backend TEXT, language TEXT);",
    "CREATE INDEX files_scan_path ON files(scan_id, path);",
    "CREATE TABLE functions ( id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE, path TEXT NOT NULL, qualname TEXT NOT NULL, name TEXT, class_name TEXT, line INTEGER, end_line INTEGER, is_async INTEGER NOT NULL DEFAULT 0, backend TEXT);",
    "CREATE INDEX functions_scan_path ON functions(scan_id, path);",
    "CREATE TABLE findings ( id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE, rule TEXT NOT NULL, severity TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'note')), path TEXT NOT NULL, line INTEGER, \"column\" INTEGER, end_line INTEGER, end_column INTEGER, function TEXT, backend TEXT, resource TEXT, resource_kind TEXT, acquired_line INTEGER, acquired_column INTEGER, message TEXT, checkpoint TEXT, fingerprint TEXT, suppressed INTEGER NOT NULL DEFAULT 0, baselined INTEGER NOT NULL DEFAULT 0);",
    "CREATE INDEX findings_scan_path ON findings(scan_id, path);",
    "CREATE INDEX findings_scan_fingerprint ON findings(scan_id, fingerprint);",
    "CREATE INDEX findings_scan_rule ON findings(scan_id, rule);",
    "CREATE TABLE finding_handlers ( finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE, ord INTEGER NOT NULL, line INTEGER, \"column\" INTEGER, catches TEXT, PRIMARY KEY (finding_id, ord));",
    "CREATE TABLE coverage ( id INTEGER PRIMARY KEY, scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE, backend TEXT NOT NULL, boundary TEXT NOT NULL, status TEXT NOT NULL, rules TEXT, protection TEXT, path TEXT, function TEXT, line INTEGER, lines TEXT);",
    "CREATE INDEX coverage_scan ON coverage(scan_id, boundary, backend);",
    "CREATE VIEW latest_scan AS SELECT * FROM scans WHERE status = 'complete' ORDER BY id DESC LIMIT 1;",
    "CREATE VIEW latest_files AS SELECT * FROM files WHERE scan_id = (SELECT id FROM latest_scan);",
    "CREATE VIEW latest_functions AS SELECT * FROM functions WHERE scan_id = (SELECT id FROM latest_scan);",
    "CREATE VIEW latest_findings AS SELECT * FROM findings WHERE scan_id = (SELECT id FROM latest_scan);",
    "CREATE VIEW latest_coverage AS SELECT * FROM coverage WHERE scan_id = (SELECT id FROM latest_scan);",
]


def decode_dir_index(blob):
    """{path: (mtime_ns, [entry names])} from a dir_index blob (cache.h's ca_dirs format)."""
    assert blob.startswith(b"ca-dirs 1\n"), blob[:16]
    at, out = len(b"ca-dirs 1\n"), {}
    while at < len(blob):
        nul = blob.index(b"\0", at)
        path = blob[at:nul].decode()
        mtime = int.from_bytes(blob[nul + 1:nul + 9], "little")
        n = int.from_bytes(blob[nul + 9:nul + 13], "little")
        entries = blob[nul + 13:nul + 13 + n]
        names, k = [], 0
        while k < len(entries):
            end = entries.index(b"\0", k + 1)
            names.append(entries[k + 1:end].decode())
            k = end + 1
        out[path] = (mtime, names)
        at = nul + 13 + n
    return out


# loops.py's handler ends the loop: fine where the loop is a task of its own
# (starter.py spawns it), a swallow where starter.py awaits it.
LOOPS = """\
import asyncio


async def pinger(send):
    while True:
        try:
            await asyncio.sleep(1)
            await send()
        except asyncio.CancelledError:
            break
"""
STARTER_SPAWNS = """\
import asyncio

from loops import pinger


async def start(send):
    return asyncio.create_task(pinger(send))
"""
# conn.py's wrapper starts the task a factory makes; client.py, in another
# module, hands it a method of self through that inherited wrapper: its
# handler is that task's own end (a spawn via "self._start_task").
CONN_BASE = """\
import asyncio


class Connection:
    def _start_task(self, factory):
        return asyncio.create_task(factory())
"""
CONN_CLIENT = """\
import asyncio

from conn import Connection


class Client(Connection):
    def start(self):
        self._task = self._start_task(self._keepalive)

    async def _keepalive(self):
        try:
            while True:
                await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass
"""
STARTER_AWAITS = """\
from loops import pinger


async def run(send):
    await pinger(send)
"""
# frontend.py hands its handler to start_server; the handler awaits the
# public bind of backend.py in place: bind runs in a task nothing cancels
# (FN_UNCANCELLED_VIA), decided by a call in another file.
BACKEND = """\
import asyncio


class Backend:
    async def bind(self, reader, writer):
        proc = await asyncio.create_subprocess_exec("cat")
        await writer.drain()
        proc.kill()
"""
FRONTEND_SERVES = """\
import asyncio

from backend import Backend


class Frontend:
    async def start(self, port):
        self.server = await asyncio.start_server(self._pipe, port=port)

    async def _pipe(self, reader, writer):
        backend = Backend()
        await backend.bind(reader, writer)
"""
FRONTEND_TIMES = FRONTEND_SERVES.replace(
    "await backend.bind(reader, writer)", "await asyncio.wait_for(backend.bind(reader, writer), 5)")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class Incremental(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ca-incremental-")
        self.tree = os.path.join(self.tmp, "tree")
        self.db = os.path.join(self.tmp, "warm.db")
        self.n = 0
        write(os.path.join(self.tree, "a.py"), A)
        write(os.path.join(self.tree, "b.py"), B_RELEASES)
        write(os.path.join(self.tree, "bug.py"), BUG)
        write(os.path.join(self.tree, "plain.py"), PLAIN)
        for i in range(5):
            write(os.path.join(self.tree, "pkg", "mod%d.py" % i), BUG.replace("Pool", "Pool%d" % i))
        # files must be older than the scan that first records them
        time.sleep(0.05)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def scan(self, db, *extra):
        out = os.path.join(self.tmp, "out%d.json" % self.n)
        self.n += 1
        p = subprocess.run([BINARY, "scan", "tree", "--db", db, "--format", "json", "--output", out,
                            "--no-progress", *extra], cwd=self.tmp, capture_output=True, text=True, timeout=120)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        with open(out) as f:
            return json.load(f), p.stderr

    def statuses(self, db, scan_id):
        con = sqlite3.connect(db)
        try:
            return dict(con.execute("SELECT path, status FROM scan_files WHERE scan_id = ?", (scan_id,)).fetchall())
        finally:
            con.close()

    def functions(self, db, scan_id):
        con = sqlite3.connect(db)
        try:
            return con.execute("SELECT path, qualname, name, class_name, line, end_line, is_async, backend, "
                               "ordinal, facts FROM scan_functions WHERE scan_id = ? ORDER BY path, ordinal",
                               (scan_id,)).fetchall()
        finally:
            con.close()

    def check_against_cold(self, warm, *extra, db=None):
        """A --no-cache scan of the same tree into a fresh database says the same."""
        cold_db = os.path.join(self.tmp, "cold%d.db" % self.n)
        cold, _ = self.scan(cold_db, "--no-cache", *extra)
        self.assertEqual(warm["findings"], cold["findings"])
        self.assertEqual(warm["coverage"], cold["coverage"])
        self.assertEqual(warm["families"], cold["families"])
        self.assertEqual({k: v for k, v in warm["scan"].items() if k != "id"},
                         {k: v for k, v in cold["scan"].items() if k != "id"})
        self.assertEqual(self.functions(db or self.db, warm["scan"]["id"]),
                         self.functions(cold_db, cold["scan"]["id"]))
        return cold

    def test_unchanged_tree_is_reused_whole(self):
        first, _ = self.scan(self.db)
        self.assertTrue(first["findings"])
        second, err = self.scan(self.db)
        st = self.statuses(self.db, second["scan"]["id"])
        self.assertEqual(st["tree/plain.py"], "skipped")
        self.assertEqual({p for p, s in st.items() if s != "skipped"}, {p for p, s in st.items() if s == "cached"})
        self.assertEqual(first["findings"], second["findings"])
        self.assertEqual(first["coverage"], second["coverage"])
        self.check_against_cold(second)

    def test_no_cache_analyses_everything(self):
        self.scan(self.db)
        again, _ = self.scan(self.db, "--no-cache")
        self.assertNotIn("cached", self.statuses(self.db, again["scan"]["id"]).values())
        # and a --no-cache scan still leaves results to reuse
        third, _ = self.scan(self.db)
        self.assertIn("cached", self.statuses(self.db, third["scan"]["id"]).values())

    def test_changed_file_is_analysed_again(self):
        self.scan(self.db)
        path = os.path.join(self.tree, "pkg", "mod3.py")
        write(path, BUG.replace("Pool", "Pool3") + "\n\nasync def extra(url):\n    s = aiohttp.ClientSession()\n"
                                                   "    await s.get(url)\n    await s.close()\n")
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/pkg/mod3.py"], "analyzed")
        self.assertEqual(st["tree/pkg/mod2.py"], "cached")
        self.assertTrue(any(f["function"] == "extra" for f in warm["findings"]))
        self.check_against_cold(warm)

    def test_same_content_new_mtime_is_reused(self):
        self.scan(self.db)
        path = os.path.join(self.tree, "bug.py")
        os.utime(path, None)
        warm, _ = self.scan(self.db)
        self.assertEqual(self.statuses(self.db, warm["scan"]["id"])["tree/bug.py"], "cached")
        self.check_against_cold(warm)

    def test_callee_change_reanalyses_the_unchanged_caller(self):
        first, _ = self.scan(self.db)
        self.assertFalse([f for f in first["findings"] if f["path"] == "tree/a.py"])
        write(os.path.join(self.tree, "b.py"), B_KEEPS)
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/b.py"], "analyzed")
        self.assertEqual(st["tree/a.py"], "analyzed")  # unchanged, but what it calls changed
        self.assertEqual(st["tree/bug.py"], "cached")
        self.assertTrue([f for f in warm["findings"] if f["path"] == "tree/a.py"])
        self.check_against_cold(warm)
        # and back
        write(os.path.join(self.tree, "b.py"), B_RELEASES)
        warm, _ = self.scan(self.db)
        self.assertFalse([f for f in warm["findings"] if f["path"] == "tree/a.py"])
        self.check_against_cold(warm)

    def test_new_file_that_shadows_a_callee(self):
        self.scan(self.db)
        # a second module-level `finish` makes the name ambiguous: a.py's call no longer resolves
        write(os.path.join(self.tree, "c.py"), B_KEEPS.replace("other", "other_c"))
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/a.py"], "analyzed")
        self.check_against_cold(warm)

    def test_removed_callee(self):
        self.scan(self.db)
        os.remove(os.path.join(self.tree, "b.py"))
        warm, _ = self.scan(self.db)
        self.assertEqual(self.statuses(self.db, warm["scan"]["id"])["tree/a.py"], "analyzed")
        self.check_against_cold(warm)

    def test_spawn_in_another_file_reanalyses_the_unchanged_loop(self):
        """A loop another module starts as a task swallows only its own stop
        (FN_SPAWNED_ELSEWHERE): when that module stops starting it, the loop's
        file, unchanged, is analysed again and its handler reported; and back."""
        write(os.path.join(self.tree, "loops.py"), LOOPS)
        write(os.path.join(self.tree, "starter.py"), STARTER_SPAWNS)
        time.sleep(0.05)
        first, _ = self.scan(self.db)
        self.assertFalse([f for f in first["findings"] if f["path"] == "tree/loops.py"])
        write(os.path.join(self.tree, "starter.py"), STARTER_AWAITS)
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/loops.py"], "analyzed")  # unchanged, but no longer started as a task
        self.assertEqual(st["tree/bug.py"], "cached")
        self.assertEqual([f["rule"] for f in warm["findings"] if f["path"] == "tree/loops.py"], ["CAN401"])
        self.check_against_cold(warm)
        write(os.path.join(self.tree, "starter.py"), STARTER_SPAWNS)
        warm, _ = self.scan(self.db)
        self.assertEqual(self.statuses(self.db, warm["scan"]["id"])["tree/loops.py"], "analyzed")
        self.assertFalse([f for f in warm["findings"] if f["path"] == "tree/loops.py"])
        self.check_against_cold(warm)

    def test_handler_in_another_file_decides_the_unchanged_callee(self):
        """What a connection handler awaits in place runs in its uncancelled
        task, in any file: the callee's file is edited and the handler's
        reused, or the handler's file is edited (a timeout around the call)
        and the callee's reused; each rescan says what a cold one does, from
        the calls each file kept (SPAWN_EDGE)."""
        write(os.path.join(self.tree, "backend.py"), BACKEND)
        write(os.path.join(self.tree, "frontend.py"), FRONTEND_SERVES)
        time.sleep(0.05)
        first, _ = self.scan(self.db)
        self.assertFalse([f for f in first["findings"] if f["path"] == "tree/backend.py"])
        write(os.path.join(self.tree, "backend.py"), BACKEND + "\n# edited\n")
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/frontend.py"], "cached")
        self.assertFalse([f for f in warm["findings"] if f["path"] == "tree/backend.py"])
        self.check_against_cold(warm)
        write(os.path.join(self.tree, "frontend.py"), FRONTEND_TIMES)
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/backend.py"], "analyzed")  # unchanged, but its caller now times it
        self.assertEqual([f["rule"] for f in warm["findings"] if f["path"] == "tree/backend.py"], ["CAN102"])
        self.check_against_cold(warm)

    def test_spawn_through_an_inherited_wrapper_survives_reuse(self):
        """A spawn recorded through a wrapper of self (the wrapper a base class
        of another module defines, SPAWN_VIA "self._start_task"): a warm
        rescan reuses both files and says what a cold one does. (A merged
        store's records carry the spawn's wrapper too: test_merge's scan of
        the union.)"""
        write(os.path.join(self.tree, "conn.py"), CONN_BASE)
        write(os.path.join(self.tree, "client.py"), CONN_CLIENT)
        time.sleep(0.05)
        first, _ = self.scan(self.db)
        self.assertFalse([f for f in first["findings"] if f["path"] == "tree/client.py"])
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/client.py"], "cached")
        self.assertEqual(st["tree/conn.py"], "cached")
        self.assertFalse([f for f in warm["findings"] if f["path"] == "tree/client.py"])
        self.check_against_cold(warm)

    def test_membership_follows_the_class_graph(self):
        """Which backends a family has spans files: an edit of the base alone changes the membership
        of subclasses in files that are reused unchanged, and the rescan says what a full scan says."""
        base = ("import abc\nimport asyncio\n\n\nclass BaseShell(abc.ABC):\n"
                "    async def open_session(self, key):\n        return key\n\n"
                "    async def close(self, key):\n        return None\n")
        sub = ("import asyncio\nfrom base import BaseShell\n\n\nclass {0}Shell(BaseShell):\n"
               "    async def close(self, key):\n"
               "        task = asyncio.create_task(work())\n"
               "        async with self._lock:\n"
               "            self._tasks[key] = task\n")
        own = ("    async def open_session(self, key):\n        return key\n")
        fam = os.path.join(self.tree, "fam")
        write(os.path.join(fam, "base.py"), base)
        write(os.path.join(fam, "alpha.py"), sub.format("Alpha") + own)
        write(os.path.join(fam, "beta.py"), sub.format("Beta"))  # inherits open_session
        write(os.path.join(fam, "gamma.py"), sub.format("Gamma") + own)
        time.sleep(0.05)
        first, _ = self.scan(self.db)
        shells = [f for f in first["families"] if f["name"] == "BaseShell"]
        self.assertEqual([b["name"] for b in shells[0]["backends"]], ["alpha", "beta", "gamma"])
        self.assertIn({"family": "BaseShell", "backend": "beta", "boundary": "open_session", "status": "inherited",
                       "rules": [], "protection": "", "path": "tree/fam/base.py", "line": 6}, first["coverage"])
        # open_session becomes abstract: Beta, which does not define it, is abstract now, no backend
        write(os.path.join(fam, "base.py"), base.replace("    async def open_session",
                                                         "    @abc.abstractmethod\n    async def open_session"))
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        self.assertEqual(st["tree/fam/base.py"], "analyzed")
        self.assertEqual(st["tree/fam/beta.py"], "cached")
        shells = [f for f in warm["families"] if f["name"] == "BaseShell"]
        self.assertEqual([b["name"] for b in shells[0]["backends"]], ["alpha", "gamma"])
        self.assertEqual([(e["class"], e["role"]) for e in shells[0]["excluded"]], [("BetaShell", "abstract")])
        self.assertFalse([c for c in warm["coverage"] if c["backend"] == "beta"])
        self.assertEqual({f["backend"] for f in warm["findings"] if f["path"] == "tree/fam/beta.py"}, {""})
        self.check_against_cold(warm)
        con = sqlite3.connect(self.db)
        try:
            digests = [r[0] for r in con.execute("SELECT class_digest FROM scans WHERE id IN (?, ?) ORDER BY id",
                                                 (first["scan"]["id"], warm["scan"]["id"]))]
        finally:
            con.close()
        self.assertTrue(all(d and d.startswith("c1 ") for d in digests), digests)
        self.assertNotEqual(digests[0], digests[1])
        # diff names the backend that left the family
        d = subprocess.run([BINARY, "diff", "--db", self.db, "--format", "json", str(first["scan"]["id"]),
                            str(warm["scan"]["id"])], cwd=self.tmp, capture_output=True, text=True, timeout=120)
        self.assertIn(d.returncode, (0, 1), d.stderr)
        self.assertIn({"name": "BaseShell", "change": "changed", "backends_added": [], "backends_removed": ["beta"]},
                      json.loads(d.stdout)["families"])
        # and nothing changed since: the same digest, the same families
        again, _ = self.scan(self.db)
        self.assertEqual(again["families"], warm["families"])
        self.check_against_cold(again)

    def test_other_options_are_not_reused(self):
        self.scan(self.db)
        warm, _ = self.scan(self.db, "--select", "CAN101")
        self.assertNotIn("cached", self.statuses(self.db, warm["scan"]["id"]).values())
        self.assertEqual({f["rule"] for f in warm["findings"]}, {"CAN101"})
        self.check_against_cold(warm, "--select", "CAN101")
        # each selection reuses its own last scan
        again, _ = self.scan(self.db)
        self.assertIn("cached", self.statuses(self.db, again["scan"]["id"]).values())
        self.check_against_cold(again)

    def test_diagnostics_are_kept(self):
        write(os.path.join(self.tree, "broken.py"), "async def broken(:\n    await x(\n")
        time.sleep(0.05)
        _, err1 = self.scan(self.db)
        warm, err2 = self.scan(self.db)
        self.assertEqual(self.statuses(self.db, warm["scan"]["id"])["tree/broken.py"], "cached")
        self.assertIn("tree/broken.py", err1)
        self.assertEqual(err1, err2)

    def test_baseline_marks_are_not_carried_over(self):
        base = os.path.join(self.tmp, "baseline.json")
        p = subprocess.run([BINARY, "baseline", "tree", "--output", base], cwd=self.tmp, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        with_base, _ = self.scan(self.db, "--baseline", base)
        self.assertGreater(with_base["scan"]["baselined"], 0)
        warm, _ = self.scan(self.db)
        self.assertEqual(warm["scan"]["baselined"], 0)
        con = sqlite3.connect(self.db)
        try:
            n = con.execute("SELECT count(*) FROM scan_findings WHERE scan_id = ? AND baselined = 1",
                            (warm["scan"]["id"],)).fetchone()[0]
        finally:
            con.close()
        self.assertEqual(n, 0)


    def test_nothing_changed_shares_rows(self):
        """A rescan in which nothing changed records no copy of the rows: it names the scan that holds
        them (scans.rows_of), keeps its own baseline flags, and reads back (views, report, diff) as a
        full scan would."""
        first, _ = self.scan(self.db)
        con = sqlite3.connect(self.db)
        try:
            counts = [con.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
                      for t in ("files", "functions", "findings", "coverage")]
        finally:
            con.close()
        base = os.path.join(self.tmp, "baseline.json")
        p = subprocess.run([BINARY, "baseline", "tree", "--output", base, "--no-db"], cwd=self.tmp,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        hidden, _ = self.scan(self.db, "--baseline", base)
        plain, _ = self.scan(self.db)
        fid, hid, pid = first["scan"]["id"], hidden["scan"]["id"], plain["scan"]["id"]
        self.assertEqual(hidden["scan"]["baselined"], len(first["findings"]))
        self.assertEqual(plain["findings"], first["findings"])
        self.assertEqual(plain["coverage"], first["coverage"])
        con = sqlite3.connect(self.db)
        try:
            self.assertEqual([con.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
                              for t in ("files", "functions", "findings", "coverage")], counts)
            self.assertEqual(con.execute("SELECT id, rows_of FROM scans ORDER BY id").fetchall(),
                             [(fid, None), (hid, fid), (pid, fid)])
            per_scan = {sid: con.execute("SELECT rule, path, line, fingerprint, baselined FROM scan_findings"
                                         " WHERE scan_id = ? ORDER BY finding_id", (sid,)).fetchall()
                        for sid in (fid, hid, pid)}
            self.assertTrue(per_scan[fid])
            self.assertEqual({r[4] for r in per_scan[fid]}, {0})
            self.assertEqual({r[4] for r in per_scan[hid]}, {1})
            self.assertEqual(per_scan[pid], per_scan[fid])
            self.assertEqual([r[:4] for r in per_scan[hid]], [r[:4] for r in per_scan[fid]])
            self.assertEqual(con.execute("SELECT count(*) FROM latest_files").fetchone()[0],
                             con.execute("SELECT count(*) FROM files").fetchone()[0])
            self.assertEqual(con.execute("SELECT count(*) FROM latest_files WHERE status = 'analyzed'").fetchone()[0], 0)
            self.assertEqual(con.execute("PRAGMA foreign_key_check").fetchall(), [])
        finally:
            con.close()
        # reports and diffs read a shared scan like any other
        for cmd in (["diff", "--format", "json", str(fid), str(pid)], ["matrix", "--scan", str(hid), "--format", "json"]):
            p = subprocess.run([BINARY, *cmd, "--db", self.db], cwd=self.tmp, capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            if cmd[0] == "diff":
                d = json.loads(p.stdout)
                self.assertEqual((d["new"], d["fixed"]), ([], []))
                self.assertEqual(len(d["unchanged"]), len(first["findings"]))
        # one file touched: the next scan writes rows of its own again
        path = os.path.join(self.tree, "plain.py")
        with open(path, "a") as f:
            f.write("# touched\n")
        touched, _ = self.scan(self.db)
        con = sqlite3.connect(self.db)
        try:
            self.assertEqual(con.execute("SELECT rows_of FROM scans WHERE id = ?", (touched["scan"]["id"],)).fetchone(),
                             (None,))
        finally:
            con.close()
        self.assertEqual(touched["findings"], first["findings"])
        self.check_against_cold(touched)

    def test_directory_listings_are_recalled_only_when_unchanged(self):
        """A directory whose mtime is the one the last walk saw is not read again; one that changed is,
        and a stored index that does not decode is not trusted."""
        deep = os.path.join(self.tree, "deep", "a", "b")
        write(os.path.join(deep, "x.py"), BUG.replace("Pool", "PoolX"))
        time.sleep(0.05)
        first, _ = self.scan(self.db)
        con = sqlite3.connect(self.db)
        try:
            blob = con.execute("SELECT listings FROM dir_index WHERE scan_id = ?", (first["scan"]["id"],)).fetchone()[0]
        finally:
            con.close()
        dirs = decode_dir_index(blob)
        self.assertEqual(set(dirs), {"tree", "tree/pkg", "tree/deep", "tree/deep/a", "tree/deep/a/b"})
        self.assertEqual(dirs["tree/deep/a/b"][1], ["x.py"])
        self.assertEqual(sorted(dirs["tree"][1]), ["a.py", "b.py", "bug.py", "deep", "pkg", "plain.py"])
        self.assertEqual(dirs["tree/pkg"][0], os.stat(os.path.join(self.tree, "pkg")).st_mtime_ns)
        # a new file deep down: only its directory's mtime changed
        write(os.path.join(deep, "y.py"), BUG.replace("Pool", "PoolY"))
        second, _ = self.scan(self.db)
        self.assertIn("tree/deep/a/b/y.py", {f["path"] for f in second["findings"]})
        self.check_against_cold(second)
        # a file gone
        os.unlink(os.path.join(self.tree, "pkg", "mod1.py"))
        third, _ = self.scan(self.db)
        self.assertNotIn("tree/pkg/mod1.py", {f["path"] for f in third["findings"]})
        self.check_against_cold(third)
        # a listing that does not decode is read afresh, not trusted
        time.sleep(0.05)
        fourth, _ = self.scan(self.db, "--no-cache")
        con = sqlite3.connect(self.db)
        try:
            con.execute("UPDATE dir_index SET listings = x'41' WHERE scan_id = ?", (fourth["scan"]["id"],))
            con.commit()
        finally:
            con.close()
        with open(os.path.join(self.tree, "bug.py"), "a") as f:  # a change elsewhere: no directory changes
            f.write("# edited\n")
        fifth, _ = self.scan(self.db)
        self.assertEqual({f["path"] for f in fifth["findings"] if f["path"].startswith("tree/pkg/")},
                         {"tree/pkg/mod%d.py" % i for i in (0, 2, 3, 4)})
        self.check_against_cold(fifth)

    def test_damaged_cache_rows_are_not_trusted(self):
        first, _ = self.scan(self.db)
        sid = first["scan"]["id"]
        con = sqlite3.connect(self.db)
        try:
            con.execute("UPDATE files SET deps = 'd1 zz' WHERE scan_id = ? AND path = 'tree/bug.py'", (sid,))
            con.execute("UPDATE functions SET facts = 'f1 1 2' WHERE scan_id = ? AND path = 'tree/pkg/mod1.py'",
                        (sid,))
            con.execute("UPDATE functions SET ordinal = ordinal + 7 WHERE scan_id = ? AND path = 'tree/pkg/mod2.py'", (sid,))
            con.execute("UPDATE findings SET function = NULL WHERE scan_id = ? AND path = 'tree/pkg/mod3.py'", (sid,))
            con.execute("UPDATE functions SET facts = 'f1 0 0 0 0 0 0 0 1 99999:x 0' "
                        "WHERE scan_id = ? AND path = 'tree/pkg/mod4.py'", (sid,))
            con.commit()
        finally:
            con.close()
        warm, _ = self.scan(self.db)
        st = self.statuses(self.db, warm["scan"]["id"])
        for path in ("bug.py", "pkg/mod1.py", "pkg/mod2.py", "pkg/mod3.py", "pkg/mod4.py"):
            self.assertEqual(st["tree/" + path], "analyzed", path)
        self.assertEqual(st["tree/pkg/mod0.py"], "cached")
        self.check_against_cold(warm)

    def test_schema_1_database_is_migrated(self):
        db = os.path.join(self.tmp, "old.db")
        con = sqlite3.connect(db)
        try:
            for stmt in SCHEMA_V1:
                con.execute(stmt)
            con.execute("INSERT INTO scans(started, started_ns, version, status, files_scanned) "
                        "VALUES ('2026-01-01T00:00:00Z', 1, '0.1.0', 'complete', 1)")
            con.execute("INSERT INTO files(scan_id, path, size, mtime_ns, hash, status, backend, language) "
                        "VALUES (1, 'tree/bug.py', 1, 1, '0123456789abcdef', 'analyzed', 'bug', 'python')")
            con.execute("PRAGMA user_version = 1")
            con.execute("PRAGMA application_id = %d" % 0x43417564)
            con.commit()
        finally:
            con.close()
        first, _ = self.scan(db)
        self.assertEqual(first["scan"]["id"], 2)
        self.assertNotIn("cached", self.statuses(db, 2).values())  # the old scan has no cache key
        second, _ = self.scan(db)
        self.assertIn("cached", self.statuses(db, second["scan"]["id"]).values())
        self.check_against_cold(second, db=db)
        con = sqlite3.connect(db)
        try:
            with open(os.path.join(SOURCE_DIR, "analyzer", "store", "store.h")) as f:
                want = int(re.search(r"#define STORE_SCHEMA_VERSION (\d+)", f.read()).group(1))
            self.assertGreaterEqual(want, 3)
            self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], want)
            self.assertEqual(con.execute("SELECT path FROM files WHERE scan_id = 1").fetchall(), [("tree/bug.py",)])
        finally:
            con.close()


if __name__ == "__main__":
    if not os.path.exists(BINARY):
        print("no analyzer binary at %s" % BINARY)
        sys.exit(1)
    unittest.main(verbosity=2)
