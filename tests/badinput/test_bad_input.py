#!/usr/bin/env python3
"""Bad input never crashes the scan and never loses data (DESIGN §10).

One tree holds, next to a file with a real bug: syntax errors, invalid
UTF-8, NUL bytes, an empty file, a UTF-8 BOM, CRLF and CR-only line ends,
a directory symlink loop, a FIFO named x.py, 100,000 nested `(` (refused
before parsing), and the deepest indentation nesting that fits in ~5 MB
(100,000 indented levels would need gigabytes). Expectations:

  - each bad file gets a per-file diagnostic on stderr naming it;
  - files that are valid Python (empty, BOM, CRLF, CR-only) are analysed
    like any other: no diagnostic, and their bugs are reported;
  - the real bug is still reported and the exit code is 1;
  - JSON `scan.errors` counts the refused files;
  - nothing crashes (no exit code >= 3, no signal);
  - the same with a database: two runs into one db, both complete, and
    `PRAGMA integrity_check` says ok.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory).
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# CAN102 at line 8: the task is unowned across the lock hand-over.
BUG = """\
import asyncio


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        # the lock can be contended: cancellation lands here
        async with self._lock:
            self._tasks[key] = task
"""
BUG_LINE = 8

DEEP_BUDGET = 5_000_000  # bytes


def deep_indentation(budget):
    """The deepest `if x:` nesting (one-space indents) whose file fits in budget bytes."""
    head = "async def deep(x):\n"
    size, n = len(head), 0
    while True:
        add = (n + 1) + len("if x:\n")
        if size + add + (n + 2) + len("await g()\n") > budget:
            break
        size += add
        n += 1
    parts = [head]
    for i in range(n):
        parts.append(" " * (i + 1) + "if x:\n")
    parts.append(" " * (n + 1) + "await g()\n")
    return "".join(parts), n


def build_tree(root):
    """Write the tree; return {relative path: kind} of the bad files."""
    def put(rel, data):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))

    put("tree/real_bug.py", BUG)
    # a syntax error after a valid function, and a bug after the error
    put("tree/syntax_error.py", "async def ok():\n    await g()\n\ndef broken(:\n    pass\n\n\n" + BUG)
    put("tree/invalid_utf8.py", b"async def f():\n    s = '\xc3\x28 \xff\xfe'\n    await g()\n")
    put("tree/nul_bytes.py", b"async def f():\n    await g()\x00\x00\n\x00\n")
    # a lone CR (fixed up before parsing) before a NUL: the offset is the file's
    put("tree/nul_after_cr.py", b"async def f():\r    await g()\x00\n")
    put("tree/empty.py", b"")
    put("tree/bom.py", b"\xef\xbb\xbf" + BUG.encode())
    put("tree/crlf.py", BUG.replace("\n", "\r\n"))
    put("tree/cr_only.py", BUG.replace("\n", "\r"))
    put("tree/parens.py", "async def f():\n    await g(" + "(" * 100_000 + ")" * 100_000 + ")\n")
    deep, levels = deep_indentation(DEEP_BUDGET)
    put("tree/deep_blocks.py", deep)
    os.makedirs(os.path.join(root, "tree", "loop"))
    put("tree/loop/inner.py", "async def inner():\n    await g()\n")
    os.symlink("..", os.path.join(root, "tree", "loop", "up"))
    os.mkfifo(os.path.join(root, "tree", "x.py"))
    return levels


class BadInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="ca-badinput-")
        cls.root = cls._tmp.name
        cls.levels = build_tree(cls.root)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def scan(self, *args):
        p = subprocess.run([BINARY, "scan", "tree", "--format", "json", "--no-progress"] + list(args),
                           cwd=self.root, capture_output=True, timeout=300)
        self.assertGreaterEqual(p.returncode, 0, "killed by signal %d" % -p.returncode)
        err = p.stderr.decode("utf-8", "replace")
        self.assertLess(p.returncode, 3, "the run failed (%d):\n%s" % (p.returncode, err))
        self.assertEqual(p.returncode, 1, "the real bug gives exit 1:\n%s" % err)
        return json.loads(p.stdout.decode("utf-8")), err

    def diag_lines(self, err, rel):
        return [l for l in err.splitlines() if rel in l]

    def check_run(self, doc, err):
        self.assertGreaterEqual(self.levels, 2000, "the deep file nests thousands of blocks")
        findings = {(f["path"], f["line"], f["rule"]) for f in doc["findings"]}
        self.assertIn(("tree/real_bug.py", BUG_LINE, "CAN102"), findings, err)
        # analysed where it parsed: the bug after the syntax error is found
        self.assertIn(("tree/syntax_error.py", BUG_LINE + 7, "CAN102"), findings, err)

        # per-file diagnostics on stderr, naming the file
        for rel, why in [("tree/syntax_error.py", "syntax"),
                         ("tree/nul_bytes.py", None),
                         ("tree/invalid_utf8.py", None),
                         ("tree/parens.py", "nested"),
                         ("tree/x.py", "FIFO"),
                         ("tree/loop/up", "loop"),
                         ("tree/deep_blocks.py", None)]:
            with self.subTest(file=rel):
                lines = self.diag_lines(err, rel)
                self.assertTrue(lines, "no diagnostic naming %s on stderr:\n%s" % (rel, err))
                if why:
                    self.assertTrue(any(why.lower() in l.lower() for l in lines), lines)

        self.assertTrue(any("NUL byte at offset 28 " in l for l in self.diag_lines(err, "tree/nul_after_cr.py")),
                        self.diag_lines(err, "tree/nul_after_cr.py"))

        # valid Python with unusual bytes is analysed like any other file
        for rel in ("tree/bom.py", "tree/crlf.py", "tree/cr_only.py"):
            with self.subTest(file=rel):
                self.assertEqual(self.diag_lines(err, rel), [], "%s is valid Python" % rel)
                self.assertIn((rel, BUG_LINE, "CAN102"), findings)
        self.assertEqual(self.diag_lines(err, "tree/empty.py"), [])
        self.assertEqual(self.diag_lines(err, "tree/loop/inner.py"), [])

        # refused (never parsed): the FIFO, the symlink loop, the bracket bomb
        self.assertEqual(doc["scan"]["errors"], 3, err)
        # no finding points into a file that was refused or holds no bug
        bad = {"tree/parens.py", "tree/x.py", "tree/empty.py", "tree/nul_bytes.py", "tree/invalid_utf8.py",
               "tree/nul_after_cr.py"}
        self.assertFalse([f for f in doc["findings"] if f["path"] in bad], doc["findings"])

    def test_scan_without_db(self):
        doc, err = self.scan("--no-db")
        self.assertIsNone(doc["scan"]["id"])
        self.check_run(doc, err)

    def test_scan_into_db_twice(self):
        db = os.path.join(self.root, "bad.db")
        ids = []
        for _ in range(2):
            doc, err = self.scan("--db", db)
            self.check_run(doc, err)
            ids.append(doc["scan"]["id"])
        con = sqlite3.connect(db)
        try:
            self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
            rows = con.execute("SELECT id, status, errors FROM scans ORDER BY id").fetchall()
            self.assertEqual([r[0] for r in rows], ids)
            self.assertEqual({r[1] for r in rows}, {"complete"})
            self.assertEqual({r[2] for r in rows}, {3})
            # the per-file problems are in the store too
            for sid in ids:
                diag = dict(con.execute("SELECT path, diagnostic FROM scan_files WHERE scan_id=?", (sid,)).fetchall())
                for rel in ("tree/parens.py", "tree/x.py", "tree/syntax_error.py"):
                    self.assertTrue(diag.get(rel), "no stored diagnostic for %s: %s" % (rel, diag))
                n = con.execute("SELECT count(*) FROM scan_findings WHERE scan_id=? AND path='tree/real_bug.py'",
                                (sid,)).fetchone()[0]
                self.assertEqual(n, 1)
        finally:
            con.close()

    def test_unreadable_file(self):
        # root reads every file: as root, the scan runs as nobody (65534)
        drop = None
        if os.geteuid() == 0:
            def drop():
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
        with tempfile.TemporaryDirectory(prefix="ca-unreadable-") as d:
            os.chmod(d, 0o755)
            os.makedirs(os.path.join(d, "tree"))
            for name, text in (("bug.py", BUG), ("secret.py", BUG)):
                with open(os.path.join(d, "tree", name), "w") as f:
                    f.write(text)
            os.chmod(os.path.join(d, "tree", "secret.py"), 0)
            try:
                p = subprocess.run([BINARY, "scan", "tree", "--no-db", "--format", "json"], cwd=d,
                                   capture_output=True, timeout=60, preexec_fn=drop)
            finally:
                os.chmod(os.path.join(d, "tree", "secret.py"), 0o644)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(b"tree/secret.py", p.stderr)
            doc = json.loads(p.stdout)
            self.assertEqual({f["path"] for f in doc["findings"]}, {"tree/bug.py"})
            self.assertEqual(doc["scan"]["errors"], 1)


if __name__ == "__main__":
    if not os.access(BINARY, os.X_OK):
        sys.stderr.write("cancelaudit binary not found: %s\n" % BINARY)
        sys.exit(1)
    unittest.main(verbosity=2)
