"""Crash-safe store (issue 7 item 4; DESIGN §5).

- Real scans of a 2,000-file tree killed with SIGKILL at random points
  (8 kills; seed printed, CA_KILL_SEED to replay): after each, PRAGMA
  integrity_check is ok, every earlier complete scan still has all its rows,
  a scan killed before its commit is not complete (it reads back as
  partial) and one killed after it is complete and whole.
- Four scans at once into one database, twice (the first time the four
  race to create the schema): all land complete, none lost.
- A database from a newer schema version is refused (exit 3, clear
  message, file untouched); another program's database too; an empty file
  becomes a database; a schema v1 database (fixtures/schema_v1.sql) is
  migrated with its rows kept.
"""
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import EXE, SRC, make_tree, run  # noqa: E402

NFILES = 2000
KILLS = 8
AIMED_TRIES = 3  # a kill aimed inside the result transaction, retried if it lands just after the commit

# Five windows per file: 10,000 findings make the result transaction long
# enough for some kills to land inside it.
FAT_SRC = "import asyncio\n\n" + "".join(
    "\nasync def probe_%d(host):\n"
    "    reader, writer = await asyncio.open_connection(host, 80)\n"
    "    await asyncio.sleep(0)\n"
    "    writer.close()\n" % k for k in range(5))


def schema_version():
    with open(os.path.join(SRC, "analyzer", "store", "store.h")) as f:
        return int(re.search(r"#define STORE_SCHEMA_VERSION (\d+)", f.read()).group(1))


def db_query(db, sql, args=()):
    con = sqlite3.connect(db, timeout=30)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def integrity(db):
    return db_query(db, "PRAGMA integrity_check")


def complete_scans(db):
    """{id: (findings_count, findings rows, files rows)} of complete scans."""
    rows = db_query(db, "SELECT s.id, s.findings_count,"
                        " (SELECT count(*) FROM scan_findings f WHERE f.scan_id = s.id),"
                        " (SELECT count(*) FROM scan_files f WHERE f.scan_id = s.id)"
                        " FROM scans s WHERE s.status = 'complete' ORDER BY s.id")
    return {r[0]: r[1:] for r in rows}


def wal_in_flight(db):
    """1 when the write-ahead log ends in frames of a transaction that never
    committed (what a writer killed in mid-transaction leaves once its page
    cache spilled), else 0. Reads the file only: call it before any
    connection opens the database and recovers the log."""
    try:
        with open(db + "-wal", "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return 0
    if len(data) < 32:
        return 0
    page = int.from_bytes(data[8:12], "big")
    salt = data[16:24]
    last_commit = None
    off = 32
    while off + 24 + page <= len(data):
        hdr = data[off:off + 24]
        if hdr[8:16] != salt:  # a frame of an older log generation
            break
        last_commit = int.from_bytes(hdr[4:8], "big")
        off += 24 + page
    return 1 if last_commit == 0 else 0


def scan_statuses(db):
    return dict(db_query(db, "SELECT id, status FROM scans"))


def read_statuses(db, ids):
    """Each scan's status as cancelaudit reads it back (running rows of a
    dead process become "partial"), through `diff --format json`."""
    out = {}
    base = ids[0]
    for i in ids:
        p = run(["diff", "--db", db, "--format", "json", str(base), str(i)])
        if p.returncode not in (0, 1):
            raise AssertionError("diff %s %s: exit %d: %s" % (base, i, p.returncode, p.stderr.decode()))
        doc = json.loads(p.stdout)

        def walk(v):
            if isinstance(v, dict):
                if v.get("id") == i and "status" in v:
                    out[i] = v["status"]
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(doc)
    return out


class KillDuringScan(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-kill-")
        cls.tree = os.path.join(cls.tmp, "tree")
        make_tree(cls.tree, NFILES, seed_text=FAT_SRC)
        cls.db = os.path.join(cls.tmp, "audit.db")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def scan_args(self, cold):
        # cold: --no-cache, everything analysed; warm: unchanged files' results
        # are read back from the last complete scan (a shorter run that reads
        # the store while it writes)
        return [EXE, "scan", self.tree, "--db", self.db, "--format", "json", "--quiet", "--no-progress"] + (
            ["--no-cache"] if cold else [])

    def full_scan(self, cold=False):
        t0 = time.monotonic()
        p = subprocess.run(self.scan_args(cold), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        el = time.monotonic() - t0
        self.assertEqual(p.returncode, 1, p.stderr)
        return el, len(json.loads(p.stdout)["findings"])

    def test_sigkill_at_random_points(self):
        seed = int(os.environ.get("CA_KILL_SEED", str(int(time.time()))))
        rng = random.Random(seed)
        print("kill seed %d (CA_KILL_SEED=%d replays it)" % (seed, seed), flush=True)

        t_cold, nfind = self.full_scan(cold=True)
        self.assertEqual(nfind, NFILES * 5)
        t_warm, _ = self.full_scan()
        expected = complete_scans(self.db)
        self.assertEqual(len(expected), 2)
        for counts in expected.values():
            self.assertEqual(counts, (nfind, nfind, NFILES))

        killed_ids, outcomes = [], []
        for k in range(KILLS):
            # Cold and warm runs in turn; half the kills spread over the
            # whole run, half in its last third, where the results are written.
            cold = k % 2 == 0
            t_full = t_cold if cold else t_warm
            delay = rng.uniform(0, t_full) if k % 4 < 2 else rng.uniform(t_full * 0.66, t_full)
            before = set(scan_statuses(self.db))
            p = subprocess.Popen(self.scan_args(cold), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            p.send_signal(signal.SIGKILL)
            rc = p.wait(timeout=60)
            in_flight = wal_in_flight(self.db)
            statuses = scan_statuses(self.db)
            new = sorted(set(statuses) - before)
            if rc == -signal.SIGKILL:
                # Killed after its COMMIT (while writing the report or
                # exiting), a scan is complete and must be whole; killed
                # before, it stays running.
                done = [i for i in new if statuses[i] == "complete"]
                killed_ids += [i for i in new if i not in done]
                for i in done:
                    expected[i] = (nfind, nfind, NFILES)
                what = ("after its commit" if done else "in its result transaction" if in_flight
                        else "row left" if new else "before its row")
                outcomes.append("%s killed at %.3fs/%.3fs: %s" % ("cold" if cold else "warm", delay, t_full, what))
            else:
                # it finished first: a complete scan like the others
                self.assertEqual(rc, 1)
                outcomes.append("%s finished before the kill at %.3fs" % ("cold" if cold else "warm", delay))
                for i in new:
                    expected[i] = (nfind, nfind, NFILES)

            self.assertEqual(integrity(self.db), [("ok",)], "after kill %d" % k)
            self.assertEqual(complete_scans(self.db), expected, "after kill %d: a complete scan changed" % k)
            statuses = scan_statuses(self.db)
            for i in killed_ids:
                self.assertEqual(statuses[i], "running", "killed scan %d must not be complete" % i)
            if k == KILLS // 2:
                # a complete scan between kills: later kills must keep it too
                self.full_scan()
                expected = complete_scans(self.db)
        # One more kill aimed inside the result transaction: as soon as the
        # log holds uncommitted frames. The kill can still land just after
        # the commit on a loaded machine; a few tries, each checked as the
        # random kills are.
        aimed = False
        for attempt in range(AIMED_TRIES):
            before = set(scan_statuses(self.db))
            p = subprocess.Popen(self.scan_args(True), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 120
            while p.poll() is None and time.monotonic() < deadline and not wal_in_flight(self.db):
                time.sleep(0.0005)
            p.send_signal(signal.SIGKILL)
            rc = p.wait(timeout=60)
            aimed = rc == -signal.SIGKILL and wal_in_flight(self.db)
            statuses = scan_statuses(self.db)
            new = sorted(set(statuses) - before)
            if rc == -signal.SIGKILL:
                killed_ids += [i for i in new if statuses[i] != "complete"]
            for i in new:
                if statuses[i] == "complete":
                    expected[i] = (nfind, nfind, NFILES)
            outcomes.append("aimed kill %d: %s" % (attempt + 1, "in its result transaction" if aimed
                                                     else "missed (rc %d)" % rc))
            self.assertEqual(integrity(self.db), [("ok",)], "after aimed kill %d" % (attempt + 1))
            self.assertEqual(complete_scans(self.db), expected, "after aimed kill %d: a complete scan changed"
                             % (attempt + 1))
            if aimed:
                break
        self.assertTrue(aimed, "could not kill a scan inside its result transaction (no uncommitted frames "
                               "ever showed in the log): %s" % outcomes)
        self.assertEqual(integrity(self.db), [("ok",)], "after the aimed kill")
        self.assertEqual(complete_scans(self.db), expected, "after the aimed kill: a complete scan changed")
        print("kills: " + "; ".join(outcomes), flush=True)
        print("%d killed scans left a row, %d complete scans kept" % (len(killed_ids), len(expected)), flush=True)

        # Killed scans read back as partial; complete ones as complete.
        ids = sorted(expected) + killed_ids
        got = read_statuses(self.db, ids)
        for i in killed_ids:
            self.assertEqual(got.get(i), "partial", "scan %d" % i)
        for i in expected:
            self.assertEqual(got.get(i), "complete", "scan %d" % i)

        # "Latest" is the newest complete scan, never a killed one, and the
        # database still takes new scans.
        latest = db_query(self.db, "SELECT id FROM latest_scan")[0][0]
        self.assertEqual(latest, max(expected))
        _, n = self.full_scan()
        self.assertEqual(n, nfind)
        self.assertEqual(integrity(self.db), [("ok",)])


class ConcurrentScans(unittest.TestCase):
    def test_four_at_once(self):
        tmp = tempfile.mkdtemp(prefix="ca-conc-")
        self.addCleanup(shutil.rmtree, tmp, True)
        tree = os.path.join(tmp, "tree")
        make_tree(tree, 500, seed_text=FAT_SRC)
        db = os.path.join(tmp, "audit.db")
        total = 0
        for rnd in range(2):  # round 0 also races to create the schema
            procs = [subprocess.Popen([EXE, "scan", tree, "--db", db, "--format", "json", "--quiet"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
            for p in procs:
                out, err = p.communicate(timeout=300)
                self.assertEqual(p.returncode, 1, err.decode())
                self.assertEqual(len(json.loads(out)["findings"]), 500 * 5)
            total += 4
            done = complete_scans(db)
            self.assertEqual(len(done), total, "round %d: %s" % (rnd, done))
            for counts in done.values():
                self.assertEqual(counts, (2500, 2500, 500))
            self.assertEqual(scan_statuses(db), {i: "complete" for i in done})
        self.assertEqual(integrity(db), [("ok",)])
        print("concurrency: 2 rounds of 4 simultaneous scans, %d complete rows" % total)


class SchemaVersions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ca-schema-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.tree = os.path.join(self.tmp, "tree")
        make_tree(self.tree, 3)
        self.db = os.path.join(self.tmp, "audit.db")

    def scan(self):
        return run(["scan", self.tree, "--db", self.db, "--format", "json", "--quiet"])

    def load_fixture(self, name):
        """A database as an older build wrote it (fixtures/NAME, SQL) at self.db."""
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", name)) as f:
            sql = f.read()
        con = sqlite3.connect(self.db)
        con.executescript(sql)
        con.commit()
        con.close()

    def test_newer_version_refused(self):
        con = sqlite3.connect(self.db)
        con.execute("PRAGMA application_id = 1128363364")
        con.execute("PRAGMA user_version = %d" % (schema_version() + 7))
        con.execute("CREATE TABLE future (x)")
        con.commit()
        con.close()
        with open(self.db, "rb") as f:
            before = f.read()
        p = self.scan()
        self.assertEqual(p.returncode, 3, p.stderr)  # DESIGN §6: the run failed
        err = p.stderr.decode()
        self.assertIn("schema version %d is newer than this cancelaudit supports (%d)"
                      % (schema_version() + 7, schema_version()), err)
        self.assertIn(self.db, err)
        self.assertEqual(p.stdout, b"")
        with open(self.db, "rb") as f:
            self.assertEqual(f.read(), before)
        p = run(["matrix", "--db", self.db])
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn(b"newer", p.stderr)

    def test_foreign_database_refused(self):
        con = sqlite3.connect(self.db)
        con.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
        con.execute("INSERT INTO accounts VALUES (1, 100)")
        con.commit()
        con.close()
        p = self.scan()
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn(b"is not a cancelaudit database", p.stderr)
        self.assertEqual(db_query(self.db, "SELECT name FROM sqlite_master"), [("accounts",)])

    def test_not_a_database_refused(self):
        with open(self.db, "wb") as f:
            f.write(b"this is a text file, not SQLite\n" * 100)
        p = self.scan()
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn(self.db.encode(), p.stderr)

    def test_empty_file_becomes_database(self):
        open(self.db, "wb").close()  # user_version 0, no tables
        p = self.scan()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(db_query(self.db, "PRAGMA user_version"), [(schema_version(),)])
        self.assertEqual(len(complete_scans(self.db)), 1)

    def test_v1_database_migrated(self):
        self.load_fixture("schema_v1.sql")
        old = {t: db_query(self.db, "SELECT count(*) FROM " + t)[0][0]
               for t in ("scans", "files", "functions", "findings", "finding_handlers", "coverage")}
        p = self.scan()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(db_query(self.db, "PRAGMA user_version"), [(schema_version(),)])
        self.assertEqual(integrity(self.db), [("ok",)])
        # every old row is still there, and the new scan landed beside them
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM findings WHERE scan_id = 1"), [(2,)])
        self.assertEqual(db_query(self.db, "SELECT message FROM findings WHERE scan_id = 1 ORDER BY id"),
                         [("old message one",), ("old message two",)])
        self.assertEqual(db_query(self.db, "SELECT catches FROM finding_handlers"), [("Exception",)])
        for t, n in old.items():
            self.assertGreaterEqual(db_query(self.db, "SELECT count(*) FROM " + t)[0][0], n, t)
        self.assertEqual(sorted(complete_scans(self.db)), [1, 3])
        # the old running row from another host is partial, the old complete scan is readable
        got = read_statuses(self.db, [1, 2, 3])
        self.assertEqual(got, {1: "complete", 2: "partial", 3: "complete"})

    def test_v2_database_migrated(self):
        """Schema 2 (before shared rows): files and functions move to keyed tables, the old scans read
        through the scan_* views as they did, and reports and diffs of them still work."""
        self.load_fixture("schema_v2.sql")
        p = self.scan()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(db_query(self.db, "PRAGMA user_version"), [(schema_version(),)])
        self.assertEqual(integrity(self.db), [("ok",)])
        self.assertEqual(db_query(self.db, "PRAGMA foreign_key_check"), [])
        self.assertEqual(db_query(self.db, "SELECT path, status, hash FROM scan_files WHERE scan_id = 2 ORDER BY path"),
                         [("src/bug.py", "cached", "87f6c41dcef78330"), ("src/plain.py", "skipped", "37a57964c8f2374d")])
        for sid in (1, 2):
            self.assertEqual(db_query(self.db, "SELECT rule, path, line, baselined FROM scan_findings WHERE scan_id = ?",
                                      (sid,)), [("CAN102", "src/bug.py", 7, 0)])
            self.assertEqual(db_query(self.db, "SELECT ordinal, qualname FROM scan_functions WHERE scan_id = ?"
                                               " ORDER BY ordinal", (sid,)), [(0, "fetch"), (1, "plain")])
        self.assertEqual(db_query(self.db, "SELECT rows_of, tree_digest FROM scans WHERE id IN (1, 2)"),
                         [(None, None), (None, None)])
        d = run(["diff", "--db", self.db, "--format", "json", "1", "2"])
        self.assertEqual(d.returncode, 0, d.stderr)
        got = json.loads(d.stdout)
        self.assertEqual((len(got["new"]), len(got["fixed"]), len(got["unchanged"])), (0, 0, 1))
        m = run(["matrix", "--db", self.db, "--scan", "2", "--format", "json"])
        self.assertEqual(m.returncode, 0, m.stderr)

    def test_v3_database_migrated(self):
        """Schema 3 (before families): the old scans keep every row, their cells name no family and
        still read as the one matrix they were (text, JSON, Markdown), reports and diffs of them work,
        and a new scan beside them records its families."""
        self.load_fixture("schema_v3.sql")
        # a family for the new scan to record: Base and its two subclasses
        with open(os.path.join(self.tree, "shells.py"), "w") as f:
            f.write("class Base:\n    async def open(self):\n        pass\n\n\n"
                    "class AlphaShell(Base):\n    async def open(self):\n        pass\n\n\n"
                    "class BetaShell(Base):\n    pass\n")
        old = {t: db_query(self.db, "SELECT count(*) FROM " + t)[0][0]
               for t in ("scans", "files", "functions", "findings", "finding_handlers", "coverage")}
        before = db_query(self.db, "SELECT backend, boundary, status, rules, line FROM coverage ORDER BY id")
        p = self.scan()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(db_query(self.db, "PRAGMA user_version"), [(schema_version(),)])
        self.assertEqual(integrity(self.db), [("ok",)])
        self.assertEqual(db_query(self.db, "PRAGMA foreign_key_check"), [])
        for t, n in old.items():
            self.assertGreaterEqual(db_query(self.db, "SELECT count(*) FROM " + t)[0][0], n, t)
        self.assertEqual(db_query(self.db, "SELECT backend, boundary, status, rules, line FROM coverage"
                                           " WHERE scan_id = 1 ORDER BY id"), before)
        self.assertEqual(db_query(self.db, "SELECT DISTINCT family FROM scan_coverage WHERE scan_id IN (1, 2)"),
                         [(None,)])
        self.assertEqual(db_query(self.db, "SELECT count(*) FROM scan_families WHERE scan_id IN (1, 2)"), [(0,)])
        self.assertEqual(db_query(self.db, "SELECT rows_of, class_digest FROM scans WHERE id = 2"), [(1, None)])
        # the old scans: the matrix as it was drawn, in every format
        m = run(["matrix", "--db", self.db, "--scan", "2", "--format", "json"])
        self.assertEqual(m.returncode, 0, m.stderr)
        got = json.loads(m.stdout)
        self.assertEqual(got["families"], [])
        self.assertEqual(sorted((c["backend"], c["boundary"], c["status"]) for c in got["coverage"]),
                         sorted((b, bd, st) for b, bd, st, _, _ in before))
        self.assertEqual({c["family"] for c in got["coverage"]}, {None})
        md = run(["matrix", "--db", self.db, "--scan", "1", "--format", "markdown"])
        self.assertEqual(md.returncode, 0, md.stderr)
        self.assertIn("2 backends × 2 boundaries (async methods that two or more backends define).",
                      md.stdout.decode())
        self.assertIn("| harbor | **gap**: CAN301 (line 84) | **gap**: CAN101 (line 55) |", md.stdout.decode())
        txt = run(["matrix", "--db", self.db, "--scan", "1"])
        self.assertEqual(txt.returncode, 0, txt.stderr)
        self.assertIn("2 backends x 2 boundaries", txt.stdout.decode())
        rep = run(["report", "--db", self.db, "--scan", "2", "--backend", "quarry"])
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertIn("2 of the 2 backends in the scan run `open_session`", rep.stdout.decode())
        d = run(["diff", "--db", self.db, "--format", "json", "1", "2"])
        self.assertEqual(d.returncode, 0, d.stderr)
        self.assertEqual(json.loads(d.stdout)["families"], [])
        # the new scan records its families and its cells name theirs
        new = db_query(self.db, "SELECT max(id) FROM scans")[0][0]
        self.assertGreater(db_query(self.db, "SELECT count(*) FROM scan_coverage WHERE scan_id = ? AND family IS NOT NULL",
                                    (new,))[0][0], 0)
        self.assertTrue(db_query(self.db, "SELECT class_digest FROM scans WHERE id = ?", (new,))[0][0])

    def test_existing_database_keeps_data(self):
        self.assertEqual(self.scan().returncode, 1)
        first = complete_scans(self.db)
        self.assertEqual(self.scan().returncode, 1)
        after = complete_scans(self.db)
        self.assertEqual(len(after), 2)
        for i, counts in first.items():
            self.assertEqual(after[i], counts)
        self.assertEqual(db_query(self.db, "PRAGMA user_version"), [(schema_version(),)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
