#!/usr/bin/env python3
"""`cancelaudit merge OUT.db IN.db...` (issue 18): the stores of sharded
scans made one scan, so that matrix, report and diff see the whole
organisation.

The central check: three independent trees scanned as three shards and
merged equal, ids aside, one scan of the three trees — every file,
function, finding and handler row with every column (timings aside), every
coverage cell, and every backend family with its members. That holds
because the three trees find their families the same way alone and
together: each has duck-typed siblings and none declares a base class (a
tree that declares one has no duck-typed families, so a union with one
such tree would lose the others' families, which its shards keep; and a
union with no family at all would draw one grid, with `absent` cells for a
backend of one tree against a boundary of another). Then: families survive a merge (a
declared family, and a name two shards both use made unique in the family
and its cells); merging into a store that has scans appends one and `diff`
compares them; a shard that shares an earlier scan's rows brings them with
its own baselined flags; a later scan of the union reuses the merged
results; and the errors (a path in two shards, no complete scan, a missing
input, the output among the inputs) leave the output as it was.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.environ.get("CA_SOURCE_DIR", os.getcwd()))
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# beta: two duck-typed runners (one CAN102); gamma: two blob stores (a
# CAN101 and a CAN401). Method names differ from corpus/providers', so the
# trees share no boundary.
BETA = {
    "runners/local.py": """\
import asyncio


class LocalJobRunner:
    def __init__(self):
        self._lock = asyncio.Lock()
        self._jobs = {}

    async def spawn_job(self, spec):
        proc = await asyncio.create_subprocess_exec(*spec)
        async with self._lock:
            self._jobs[spec] = proc
""",
    "runners/remote.py": """\
import asyncio


class RemoteJobRunner:
    def __init__(self):
        self._jobs = {}

    async def spawn_job(self, spec):
        proc = await asyncio.create_subprocess_exec(*spec)
        try:
            await asyncio.sleep(0)
        except BaseException:
            proc.kill()
            raise
        self._jobs[spec] = proc
""",
}
GAMMA = {
    "stores/disk.py": """\
import asyncio
import aiohttp


class DiskBlobStore:
    async def put_blob(self, url, data):
        session = aiohttp.ClientSession()
        try:
            await session.put(url, data=data)
        except Exception:
            await session.close()
            raise
        await session.close()

    async def get_blob(self, url):
        try:
            return await asyncio.sleep(0)
        except asyncio.CancelledError:
            return None
""",
    "stores/cloud.py": """\
import asyncio
import aiohttp


class CloudBlobStore:
    async def put_blob(self, url, data):
        async with aiohttp.ClientSession() as session:
            await session.put(url, data=data)

    async def get_blob(self, url):
        return await asyncio.sleep(0)
""",
    "notes.py": "x = 1\n",  # skipped by the prefilter: a row too
}
SHARDS = ("alpha", "beta", "gamma")

# For the families test: delta declares its family (the subclasses of an
# abstract JobRunner); epsilon's duck-typed stores are named `*Store` as
# gamma's are.
DELTA = {
    "jobs/base.py": """\
import abc


class JobRunner(abc.ABC):
    @abc.abstractmethod
    async def spawn_job(self, spec):
        ...
""",
    "jobs/fast.py": BETA["runners/local.py"].replace("LocalJobRunner", "FastRunner")
    .replace("import asyncio\n", "import asyncio\n\nfrom .base import JobRunner\n")
    .replace("class FastRunner:", "class FastRunner(JobRunner):"),
    "jobs/slow.py": BETA["runners/remote.py"].replace("RemoteJobRunner", "SlowRunner")
    .replace("import asyncio\n", "import asyncio\n\nfrom .base import JobRunner\n")
    .replace("class SlowRunner:", "class SlowRunner(JobRunner):"),
}
EPSILON = {
    "blobs/mem.py": GAMMA["stores/disk.py"].replace("DiskBlobStore", "MemBlobStore"),
    "blobs/null.py": GAMMA["stores/cloud.py"].replace("CloudBlobStore", "NullBlobStore"),
}


def run(args, cwd, ok=(0, 1), env=None):
    e = dict(os.environ)
    e.pop("CANCELAUDIT_DB", None)
    e.update(env or {})
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=300, env=e)
    if ok is not None and p.returncode not in ok:
        raise AssertionError("%s: exit %d\n%s" % (args, p.returncode, p.stderr))
    return p


def columns(con, table, leave_out=()):
    return [r[1] for r in con.execute("PRAGMA table_info(%s)" % table) if r[1] not in leave_out]


def q(cols):
    return ", ".join('"%s"' % c for c in cols)


def latest(con):
    return con.execute("SELECT id, coalesce(rows_of, id) FROM scans WHERE status = 'complete' "
                       "ORDER BY id DESC LIMIT 1").fetchone()


def dump(db):
    """The latest complete scan's rows, ids and timings aside, as sorted lists."""
    con = sqlite3.connect(db)
    try:
        sid, rows = latest(con)
        out = {}
        cols = columns(con, "files", ("scan_id", "parse_ms"))
        out["files"] = sorted(con.execute("SELECT %s FROM files WHERE scan_id = ?" % q(cols), (rows,)))
        cols = columns(con, "functions", ("scan_id",))
        out["functions"] = sorted(con.execute("SELECT %s FROM functions WHERE scan_id = ?" % q(cols), (rows,)))
        cols = columns(con, "findings", ("id", "scan_id", "baselined"))
        out["findings"] = sorted(con.execute(
            "SELECT %s, baselined FROM scan_findings f WHERE scan_id = ?" % q(cols), (sid,)))
        hcols = columns(con, "finding_handlers", ("finding_id",))
        out["handlers"] = sorted(con.execute(
            "SELECT f.fingerprint, f.rule, %s FROM finding_handlers h JOIN findings f ON f.id = h.finding_id"
            " WHERE f.scan_id = ?" % ", ".join("h.\"%s\"" % c for c in hcols), (rows,)))
        cols = columns(con, "coverage", ("id", "scan_id"))
        out["coverage"] = sorted(con.execute("SELECT %s FROM coverage WHERE scan_id = ?" % q(cols), (rows,)))
        cols = columns(con, "families", ("scan_id",))
        out["families"] = con.execute("SELECT %s FROM families WHERE scan_id = ? ORDER BY ord" % q(cols),
                                      (rows,)).fetchall()
        cols = columns(con, "family_members", ("scan_id",))
        out["members"] = con.execute("SELECT %s FROM family_members WHERE scan_id = ? ORDER BY family, ord"
                                     % q(cols), (rows,)).fetchall()
        scan = con.execute("SELECT files_scanned, files_skipped, errors, baselined, findings_count FROM scans "
                           "WHERE id = ?", (sid,)).fetchone()
        out["counts"] = scan
        blob = con.execute("SELECT listings FROM dir_index WHERE scan_id = ?", (rows,)).fetchone()
        out["dirs"] = blob[0] if blob else None
        return out
    finally:
        con.close()


class Merge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-merge-")
        org = cls.org = os.path.join(cls.tmp, "org")
        shutil.copytree(os.path.join(SOURCE_DIR, "corpus", "providers"), os.path.join(org, "alpha"))
        for name, files in (("beta", BETA), ("gamma", GAMMA)):
            for rel, text in files.items():
                path = os.path.join(org, name, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
        # the shards, each from the same directory as CI jobs would, and the union
        for s in SHARDS:
            run(["scan", s, "--db", "%s.db" % s, "--no-progress", "-q"], org)
        run(["scan", *SHARDS, "--db", "union.db", "--no-progress", "-q"], org)
        cls.merge = run(["merge", "-v", "merged.db"] + ["%s.db" % s for s in SHARDS], org)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.org, name)

    def test_three_shards_equal_one_scan_of_the_union(self):
        union, merged = dump(self.path("union.db")), dump(self.path("merged.db"))
        for part in ("files", "functions", "findings", "handlers", "coverage", "counts", "families", "members"):
            with self.subTest(part=part):
                self.assertTrue(union[part], part)
                self.assertEqual(merged[part], union[part])
        # one family per tree, the largest first
        self.assertEqual([f[1] for f in merged["families"]], ["*Provider", "*Store", "*Runner"])
        # the directory listings of the three walks are the union walk's
        self.assertIsNotNone(merged["dirs"])
        self.assertEqual(merged["dirs"], union["dirs"])

    def test_message_and_scan_row(self):
        out = self.merge.stdout
        self.assertIn("merged 3 stores into merged.db as scan 1: ", out)
        self.assertRegex(out, r"matrix cells, 3 families\n$")
        for s in SHARDS:
            self.assertIn("cancelaudit: %s.db: scan 1 (" % s, self.merge.stderr)
        self.assertIn("cancelaudit: beta.db: scan 1 (2 files, 1 findings, 2 matrix cells, 1 families)",
                      self.merge.stderr)
        con = sqlite3.connect(self.path("merged.db"))
        row = con.execute("SELECT status, root, version, args, rows_of, started <= finished FROM scans").fetchall()
        con.close()
        self.assertEqual(len(row), 1)
        status, root, version, args, rows_of, ordered = row[0]
        self.assertEqual(status, "complete")
        self.assertEqual(root, os.path.realpath(self.org))
        self.assertEqual(args, "merge merged.db alpha.db beta.db gamma.db")
        self.assertIsNone(rows_of)
        self.assertTrue(ordered)

    def test_readers_work_on_the_merged_store(self):
        env = {"CANCELAUDIT_REPRODUCIBLE": "1"}
        m = run(["matrix", "--db", "merged.db", "--format", "json"], self.org, env=env)
        doc = json.loads(m.stdout)
        self.assertEqual(doc["schema_version"], 1)
        u = json.loads(run(["matrix", "--db", "union.db", "--format", "json"], self.org, env=env).stdout)
        self.assertEqual(doc["backends"], u["backends"])
        self.assertEqual(doc["boundaries"], u["boundaries"])
        for db in ("merged.db", "union.db"):
            r = run(["report", "--db", db, "--backend", "harbor"], self.org, ok=(0,), env=env).stdout
            bug = r.split("## Describe the bug")[1].split("## Other backends checked")[0]
            if db == "merged.db":
                merged_bug = bug
        self.assertEqual(merged_bug, bug)
        d = run(["diff", "--db", "merged.db", "--format", "json", "1", "1"], self.org, ok=(0,))
        self.assertEqual(json.loads(d.stdout)["summary"]["new"], 0)

    def test_families_survive_a_merge(self):
        """A declared family and two duck-typed ones of the same name: every
        family row and member is the shard's, ordinals are 0..n-1 with the
        largest grid first, the later `*Store` is renamed in its row and in
        its cells, and the readers draw each family from the merged store as
        from its shard."""
        work = tempfile.mkdtemp(dir=self.tmp)
        for name, files in (("delta", DELTA), ("epsilon", EPSILON)):
            for rel, text in files.items():
                path = os.path.join(work, name, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
        shutil.copytree(self.path("gamma"), os.path.join(work, "gamma"))
        shards = ("delta", "gamma", "epsilon")
        for s in shards:
            run(["scan", s, "--db", "%s.db" % s, "--no-progress", "-q"], work)
        run(["merge", "merged.db"] + ["%s.db" % s for s in shards], work, ok=(0,))
        one = {s: dump(os.path.join(work, "%s.db" % s)) for s in shards}
        self.assertEqual([(f[1], f[2], f[3]) for f in one["delta"]["families"]],
                         [("JobRunner", "subclasses", "JobRunner")])
        self.assertEqual([f[1] for f in one["gamma"]["families"]], ["*Store"])
        self.assertEqual([f[1] for f in one["epsilon"]["families"]], ["*Store"])
        merged = dump(os.path.join(work, "merged.db"))
        fams = merged["families"]
        self.assertEqual([f[0] for f in fams], list(range(len(fams))))
        # two 2x2 grids, then the 2x1: the later *Store is named by its place
        self.assertEqual([f[1] for f in fams], ["*Store", "*Store (2)", "JobRunner"])
        renamed = {"gamma": {"*Store": "*Store"}, "epsilon": {"*Store": "*Store (2)"},
                   "delta": {"JobRunner": "JobRunner"}}
        want_fams, want_members, want_cells = [], [], set()
        for s in shards:
            for f in one[s]["families"]:
                want_fams.append((renamed[s][f[1]],) + tuple(f[2:]))
            names = {f[0]: renamed[s][f[1]] for f in one[s]["families"]}
            for m in one[s]["members"]:
                want_members.append((names[m[0]],) + tuple(m[1:]))
            for c in one[s]["coverage"]:
                want_cells.add(c[:-1] + (renamed[s][c[-1]],))
        self.assertEqual(sorted(tuple(f[1:]) for f in fams), sorted(want_fams))
        names = {f[0]: f[1] for f in fams}
        self.assertEqual(sorted((names[m[0]],) + tuple(m[1:]) for m in merged["members"]), sorted(want_members))
        self.assertEqual(set(merged["coverage"]), want_cells)
        # the readers: one family of the merged store is its shard's grid
        env = {"CANCELAUDIT_REPRODUCIBLE": "1"}
        for s, fam in (("delta", "JobRunner"), ("epsilon", "*Store (2)"), ("gamma", "*Store")):
            with self.subTest(family=fam):
                got = json.loads(run(["matrix", "--db", "merged.db", "--format", "json", "--family", fam], work,
                                     ok=(0,), env=env).stdout)
                own = json.loads(run(["matrix", "--db", "%s.db" % s, "--format", "json", "--family",
                                      "*Store" if s != "delta" else fam], work, ok=(0,), env=env).stdout)
                self.assertEqual(got["backends"], own["backends"])
                self.assertEqual([(c["backend"], c["boundary"], c["status"]) for c in got["coverage"]],
                                 [(c["backend"], c["boundary"], c["status"]) for c in own["coverage"]])
                self.assertEqual([c["family"] for c in got["coverage"]], [fam] * len(got["coverage"]))
        text = run(["matrix", "--db", "merged.db"], work, ok=(0,), env=env).stdout
        for fam in ("*Store", "*Store (2)", "JobRunner"):
            self.assertIn(fam, text)
        rep = run(["report", "--db", "merged.db", "--backend", "fast"], work, ok=(0,), env=env).stdout
        self.assertIn("of JobRunner", rep)
        # a merged scan diffs against itself as the same families
        d = json.loads(run(["diff", "--db", "merged.db", "--format", "json", "1", "1"], work, ok=(0,)).stdout)
        self.assertEqual(d["families"], [])

    def test_merge_appends_and_diff_compares(self):
        work = tempfile.mkdtemp(dir=self.tmp)
        out = os.path.join(work, "org.db")
        ins = [self.path("%s.db" % s) for s in SHARDS]
        run(["merge", out] + ins, self.org, ok=(0,))
        run(["merge", out] + ins, self.org, ok=(0,))
        con = sqlite3.connect(out)
        ids = con.execute("SELECT id FROM scans ORDER BY id").fetchall()
        f = con.execute("SELECT count(*), count(DISTINCT id) FROM findings").fetchone()
        con.close()
        self.assertEqual(ids, [(1,), (2,)])
        self.assertEqual(f[0], f[1])
        d = run(["diff", "--db", out, "1", "2"], self.org, ok=(0,))
        self.assertIn("0 new, 0 fixed", d.stdout)
        self.assertEqual(dump(out), dump(self.path("merged.db")))

    def test_shard_sharing_rows_brings_its_own_flags(self):
        work = tempfile.mkdtemp(dir=self.tmp)
        shard = os.path.join(work, "alpha.db")
        base = os.path.join(work, "base.json")
        run(["scan", "alpha", "--db", shard, "-q"], self.org)
        run(["baseline", "alpha", "--output", base], self.org, ok=(0,))
        run(["scan", "alpha", "--db", shard, "-q", "--baseline", base], self.org, ok=(0,))
        con = sqlite3.connect(shard)
        sid, rows = latest(con)
        hidden = con.execute("SELECT count(*) FROM scan_findings WHERE scan_id = ? AND baselined", (sid,)).fetchone()
        con.close()
        self.assertNotEqual(sid, rows, "the rescan shares the first scan's rows")
        self.assertGreater(hidden[0], 0)
        out = os.path.join(work, "one.db")
        run(["merge", out, shard], self.org, ok=(0,))
        self.assertEqual(dump(out)["findings"], dump(shard)["findings"])
        con = sqlite3.connect(out)
        self.assertEqual(con.execute("SELECT count(*) FROM findings WHERE baselined").fetchone()[0], hidden[0])
        self.assertEqual(con.execute("SELECT count(*) FROM finding_flags").fetchone()[0], 0)
        con.close()

    def test_a_later_scan_of_the_union_reuses_the_merged_results(self):
        work = tempfile.mkdtemp(dir=self.tmp)
        db = os.path.join(work, "org.db")
        shutil.copy(self.path("merged.db"), db)
        fresh = run(["scan", *SHARDS, "--no-db", "--format", "json"], self.org)
        again = run(["scan", *SHARDS, "--db", db, "--format", "json"], self.org)
        key = lambda d: sorted((f["path"], f["rule"], f["fingerprint"]) for f in json.loads(d)["findings"])
        self.assertEqual(key(again.stdout), key(fresh.stdout))
        con = sqlite3.connect(db)
        statuses = dict(con.execute("SELECT status, count(*) FROM scan_files WHERE scan_id = 2 GROUP BY status"))
        con.close()
        self.assertGreater(statuses.get("cached", 0), 0, statuses)
        self.assertNotIn("analyzed", statuses)

    def test_errors_leave_the_output_as_it_was(self):
        work = tempfile.mkdtemp(dir=self.tmp)
        out = os.path.join(work, "out.db")
        run(["merge", out, self.path("beta.db")], self.org, ok=(0,))
        before = dump(out)
        # the same tree in two shards
        dup = os.path.join(work, "beta2.db")
        run(["scan", "beta", "--db", dup, "-q"], self.org)
        p = run(["merge", out, self.path("beta.db"), dup], self.org, ok=(2,))
        self.assertIn("the shards must scan disjoint paths", p.stderr)
        self.assertIn("beta/runners/", p.stderr)
        # no complete scan
        empty = os.path.join(work, "empty.db")
        shutil.copy(self.path("beta.db"), empty)
        con = sqlite3.connect(empty)
        con.execute("UPDATE scans SET status = 'running'")
        con.commit()
        con.close()
        p = run(["merge", out, self.path("gamma.db"), empty], self.org, ok=(2,))
        self.assertIn("holds no complete scan", p.stderr)
        # usage
        p = run(["merge", out, os.path.join(work, "nope.db")], self.org, ok=(2,))
        self.assertIn("no database at", p.stderr)
        p = run(["merge", out, out], self.org, ok=(2,))
        self.assertIn("both the output and an input", p.stderr)
        p = run(["merge", out, self.path("gamma.db"), self.path("gamma.db")], self.org, ok=(2,))
        self.assertIn("given twice", p.stderr)
        p = run(["merge", out], self.org, ok=(2,))
        self.assertIn("usage", p.stderr)
        p = run(["merge", "--froce", out, self.path("gamma.db")], self.org, ok=(2,))
        self.assertIn("unknown option", p.stderr)
        self.assertEqual(dump(out), before)
        con = sqlite3.connect(out)
        self.assertEqual(con.execute("SELECT count(*) FROM scans").fetchone()[0], 1)
        con.close()

    def test_inputs_are_not_changed(self):
        shard = self.path("gamma.db")
        with open(shard, "rb") as f:
            before = f.read()
        work = tempfile.mkdtemp(dir=self.tmp)
        run(["merge", os.path.join(work, "x.db"), shard], self.org, ok=(0,))
        with open(shard, "rb") as f:
            self.assertEqual(f.read(), before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
