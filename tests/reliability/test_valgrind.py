"""Valgrind memcheck (issue 7 item 2): no leak and no memory error.

Runs under valgrind --error-exitcode=99 --leak-check=full
--errors-for-leak-kinds=definite,indirect:
  1. the corpus scan without a database (the issue's command);
  2. the corpus scan into a fresh database, then a second (cached) scan and
     `matrix` reading it back;
  3. a scan of a tree of files that take the error paths (syntax errors,
     invalid UTF-8, a NUL, a device, a too-large file, a comment run the
     frontend refuses, a with-statement past the nesting limit).
"Still reachable" memory (the built-in catalog, kept for the process) is
not an error. valgrind.supp holds the one report that is not ours (glibc's
loader, when the C frontend dlopen()s libclang), with its reason.

Valgrind cannot run an ASan binary: the ASan build skips (exit 77; ctest
shows it as skipped). In the plain build a missing valgrind is a failure:
scripts/bootstrap.sh installs it.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import EXE, SANITIZED, SRC, WINDOW_SRC, write  # noqa: E402

VALGRIND = ["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
            "--quiet", "--suppressions=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "valgrind.supp")]


class Memcheck(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.valgrind = shutil.which("valgrind")
        cls.tmp = tempfile.mkdtemp(prefix="ca-valgrind-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def memcheck(self, args, cwd=SRC, ok=(0, 1)):
        log = os.path.join(self.tmp, "valgrind.log")
        cmd = [self.valgrind] + VALGRIND + ["--log-file=" + log, EXE] + args
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600,
                           stdin=subprocess.DEVNULL)
        with open(log, errors="replace") as f:
            report = f.read()
        self.assertNotEqual(p.returncode, 99, "valgrind found errors or leaks in %s:\n%s" % (args, report))
        self.assertIn(p.returncode, ok, "%s: exit %d\n%s\n%s" % (args, p.returncode,
                                                                  p.stderr.decode(errors="replace"), report))
        self.assertNotIn("ERROR SUMMARY: ", report.replace("ERROR SUMMARY: 0 errors", ""), report)
        return p

    def test_corpus_scan_no_db(self):
        p = self.memcheck(["scan", "corpus", "--no-db", "--no-progress"])
        self.assertEqual(p.returncode, 1)  # the corpus has findings

    def test_corpus_scan_with_db_and_readers(self):
        db = os.path.join(self.tmp, "audit.db")
        self.memcheck(["scan", "corpus", "--db", db, "--no-progress", "--format", "sarif"])
        self.memcheck(["scan", "corpus", "--db", db, "--no-progress", "--format", "json"])
        self.memcheck(["matrix", "--db", db])

    def test_error_paths(self):
        tree = os.path.join(self.tmp, "bad")
        write(os.path.join(tree, "ok.py"), WINDOW_SRC)
        write(os.path.join(tree, "syntax.py"), "async def f(:\n    await (\n")
        write(os.path.join(tree, "utf8.py"), b"async def f():\n    x = '\xff\xfe'\n    await g()\n", "wb")
        write(os.path.join(tree, "nul.py"), b"async def f():\n    await g()\0\n", "wb")
        write(os.path.join(tree, "big.py"), "async def f():\n    pass\n" + "#" * 5000 + "\n")
        write(os.path.join(tree, "comments.py"), "async def f():\n    pass\n" + "#\n" * 30000)
        write(os.path.join(tree, "with.py"), "async def f():\n    async with " + "a(), " * 400 + "b():\n"
                                            "        await g()\n")
        os.symlink("/dev/null", os.path.join(tree, "dev.py"))
        self.memcheck(["scan", ".", "--no-db", "--no-progress", "--max-size", "4096", "--format", "json"], cwd=tree)


if __name__ == "__main__":
    if SANITIZED:
        print("skipped: valgrind cannot run an ASan+UBSan binary; the plain build runs this test")
        sys.exit(77)
    if not shutil.which("valgrind"):
        print("FAIL: valgrind not found; install it (Debian: valgrind; scripts/bootstrap.sh does)", file=sys.stderr)
        sys.exit(1)
    unittest.main(verbosity=2)
