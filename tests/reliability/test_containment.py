"""Fault containment per file (issue 16; scan/contain.c, docs/reliability.md).

Every file is parsed and lowered in a worker process, so a crash, a runaway
or a memory blow-up in tree-sitter, libclang or the lowering costs that one
file. Each reproducer of issue 16 is scanned here inside a tree of good
files (the corpus's providers and C basics, which have findings), and each
scan must:

- finish with the exit code of the tree without the bad file (a per-file
  problem leaves it alone, DESIGN §6);
- give the bad file its diagnostic: on stderr, in the JSON summary's
  error count, and in the store (status error, the diagnostic);
- keep every other file's findings (the same fingerprints as the scan of
  the tree without the bad file);
- leave the store complete: the scan `complete`, one row per file, as many
  findings as the report shows.

Then one tree of 10,000 generated files with one file of every crashing
shape must give the same findings as the tree without them.

The reproducers:
- `x = uuf"{((((...` (100,000 brackets in an f-string with a three-letter
  prefix): the bracket pre-check looked back two prefix letters, missed the
  f-string and tree-sitter double-freed (exit 134, the whole scan lost). Now
  refused by the pre-check.
- `else: ` 70,000 times on one line: tree-sitter's error recovery makes a
  node of more than 65,535 children and frees a bad pointer; no pre-check
  predicts it. The worker dies, the file says so.
- a 880-byte C macro bomb (`#define An A(n-1) A(n-1)`, used at A22):
  libclang overflows its stack (SIGSEGV in its parsing thread).
- the same at A32: libclang runs for minutes towards 17 GB. Stopped by the
  memory limit (--file-memory), or by the CPU limit (file-timeout in the
  configuration) when memory is unlimited.
- 100,000 nested `if (x)` and a 100,000-term `x+x+...` in C: libclang's
  recursive parser overflows its stack.
- a 3 MB Python module under --file-memory 64M: the parser's own memory.
"""
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import SANITIZED, SRC, make_tree, run, write  # noqa: E402


def macro_bomb(use):
    s = "#include <pthread.h>\n#define A0 x+\n"
    for i in range(1, 41):
        s += "#define A%d A%d A%d\n" % (i, i - 1, i - 1)
    return s + "int f(int x) { return %s 0; }\nvoid g(pthread_t t) { pthread_cancel(t); }\n" % use


HEAD = "async def f():\n    await g()\n"

# name -> (file name, contents, extra scan arguments, configuration or None, diagnostic fragment)
REPRODUCERS = {
    "fstring_prefix_double_free": ("a.py", HEAD + 'x = uuf"{' + "(" * 100000 + '}"\n', [], None,
                                   "brackets nested deeper than 1000 levels"),
    "else_one_line": ("else_one_line.py", HEAD + "else: " * 70000 + "\n", [], None,
                      "analysis crashed on this file"),
    "macro_bomb_crash": ("bomb22.c", macro_bomb("A22"), [], None, "analysis crashed on this file"),
    "macro_bomb_memory": ("bomb32.c", macro_bomb("A32"), ["--file-memory", "512M"], None,
                          "analysis used more than 512 MiB on this file"),
    "macro_bomb_timeout": ("bomb32.c", macro_bomb("A32"), [], "file-timeout = 2\nfile-memory = 0\n",
                           "analysis took longer than 2 s on this file"),
    # libclang's recursive parser (docs/reliability.md listed them as not guarded)
    "c_deep_if": ("deep_if.c", "#include <pthread.h>\nint f(int x) {\n" + "if (x) " * 100000 +
                  "x++;\n    return x;\n}\nvoid g(pthread_t t) { pthread_cancel(t); }\n", [], None,
                  "analysis crashed on this file"),
    "c_long_sum": ("long_sum.c", "#include <pthread.h>\nint f(int x) { return " + "x+" * 100000 +
                   "x; }\nvoid g(pthread_t t) { pthread_cancel(t); }\n", [], None, "analysis crashed on this file"),
    "python_memory": ("huge.py", "".join("async def f%d():\n    x = await g(%d, [a, b], {'k': (1, 2)})\n" % (i, i)
                                         for i in range(60000)), ["--file-memory", "64M"], None,
                      "analysis used more than 64 MiB on this file"),
}


# The 10,000-file tree: one file of each shape that crashed or ran away, under
# one set of limits (the runaway ends on the memory limit there).
TREE_SHAPES = {
    "fstring_prefix_double_free.py": REPRODUCERS["fstring_prefix_double_free"][1],
    "else_one_line.py": REPRODUCERS["else_one_line"][1],
    "else_lines.py": HEAD + "else:\n" * 70000,
    "bomb22.c": macro_bomb("A22"),
    "bomb32.c": macro_bomb("A32"),
    "deep_if.c": REPRODUCERS["c_deep_if"][1],
    "long_sum.c": REPRODUCERS["c_long_sum"][1],
}
TREE_ARGS = ["--file-memory", "512M", "--file-timeout", "30"]


def good_tree(root):
    """The corpus's providers and C basics: Python and C files with findings."""
    shutil.copytree(os.path.join(SRC, "corpus", "providers"), os.path.join(root, "providers"))
    shutil.copytree(os.path.join(SRC, "corpus", "c", "basics"), os.path.join(root, "c"))


def scan(root, db, extra=(), timeout=600):
    p = run(["scan", ".", "--db", db, "--no-progress", "--no-cache", "--format", "json"] + list(extra), cwd=root,
            timeout=timeout)
    return p, json.loads(p.stdout.decode() or "{}")


def fingerprints(report):
    return sorted((f["path"], f["rule"], f["fingerprint"]) for f in report.get("findings", []))


class Containment(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-contain-")
        cls.base = os.path.join(cls.tmp, "base")
        good_tree(cls.base)
        cls.base_p, cls.base_report = scan(cls.base, os.path.join(cls.tmp, "base.db"))
        assert cls.base_p.returncode == 1, cls.base_p.stderr.decode()[-2000:]
        assert cls.base_report["findings"], "the good tree has findings"

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check_store(self, db, report, bad_path, why):
        con = sqlite3.connect(db)
        try:
            (scan_id, status, errors, nfind), = con.execute(
                "SELECT id, status, errors, findings_count FROM scans ORDER BY id DESC LIMIT 1").fetchall()
            self.assertEqual(status, "complete")
            self.assertEqual(errors, report["scan"]["errors"])
            self.assertEqual(con.execute("SELECT count(*) FROM scan_findings WHERE scan_id = ?",
                                         (scan_id,)).fetchone()[0], len(report["findings"]))
            self.assertEqual(nfind, len(report["findings"]))
            files = report["scan"]["files_scanned"] + report["scan"]["files_skipped"] + report["scan"]["errors"]
            self.assertEqual(con.execute("SELECT count(*) FROM scan_files WHERE scan_id = ?",
                                         (scan_id,)).fetchone()[0], files)
            rows = con.execute("SELECT status, diagnostic FROM scan_files WHERE scan_id = ? AND path LIKE ?",
                               (scan_id, "%" + bad_path)).fetchall()
            self.assertEqual(len(rows), 1, rows)
            self.assertEqual(rows[0][0], "error")
            self.assertIn(why, rows[0][1] or "")
            self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        finally:
            con.close()

    def test_reproducers(self):
        for name, (fname, text, extra, config, why) in REPRODUCERS.items():
            with self.subTest(name):
                root = os.path.join(self.tmp, name)
                good_tree(root)
                write(os.path.join(root, "bad", fname), text)
                if config:
                    write(os.path.join(root, "cancelaudit.toml"), config)
                db = os.path.join(self.tmp, name + ".db")
                p, report = scan(root, db, extra)
                err = p.stderr.decode("utf-8", "replace")
                self.assertEqual(p.returncode, self.base_p.returncode, err[-3000:])
                self.assertIn("bad/%s: " % fname, err)
                line = [ln for ln in err.splitlines() if "bad/%s: " % fname in ln][0]
                self.assertIn(why, line)
                self.assertEqual(report["scan"]["errors"], self.base_report["scan"]["errors"] + 1)
                self.assertEqual(fingerprints(report), fingerprints(self.base_report))
                self.check_store(db, report, "bad/" + fname, why)

    def test_ten_thousand_files(self):
        """10,000 files with one of every crashing shape among them: the
        same findings as without them."""
        n = 10000
        plain = os.path.join(self.tmp, "tree_plain")
        bad = os.path.join(self.tmp, "tree_bad")
        make_tree(plain, n - len(TREE_SHAPES))
        shutil.copytree(plain, bad)
        for fname, text in TREE_SHAPES.items():
            write(os.path.join(bad, "pkg050", fname), text)
        p0, r0 = scan(plain, os.path.join(self.tmp, "plain.db"), TREE_ARGS, timeout=1800)
        p1, r1 = scan(bad, os.path.join(self.tmp, "bad.db"), TREE_ARGS, timeout=1800)
        err = p1.stderr.decode("utf-8", "replace")
        self.assertEqual(p1.returncode, p0.returncode, err[-3000:])
        self.assertEqual(len(r0["findings"]), n - len(TREE_SHAPES))
        self.assertEqual(fingerprints(r1), fingerprints(r0))
        self.assertEqual(r1["scan"]["errors"], r0["scan"]["errors"] + len(TREE_SHAPES))
        for fname in TREE_SHAPES:
            self.assertIn("pkg050/%s: " % fname, err)
        con = sqlite3.connect(os.path.join(self.tmp, "bad.db"))
        try:
            status, nfiles = con.execute("SELECT s.status, (SELECT count(*) FROM scan_files f WHERE f.scan_id = s.id)"
                                         " FROM scans s ORDER BY s.id DESC LIMIT 1").fetchone()
            self.assertEqual(status, "complete")
            self.assertEqual(nfiles, n)
        finally:
            con.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
