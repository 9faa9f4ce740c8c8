#!/usr/bin/env python3
"""Exit codes, the contract CI scripts branch on (DESIGN §6):
0 no unsuppressed finding, 1 findings, 2 usage or configuration error (a
named path that does not exist included), 3 the run itself failed
(database unwritable, report not writable).

Each mode: plain scan in every format, into a database and with --no-db,
`baseline`, `--baseline`, `--changed-since` (the last two in depth in
test_baseline.py and test_changed_lines.py). A usage error prints a message
on stderr and no report on stdout. Per-file problems (a syntax error) do not
change the exit code.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402


class ExitCodes(unittest.TestCase):
    def setUp(self):
        self.root = ca.temp_dir(self)
        ca.write(self.root, "clean/ok.py", ca.CLEAN_MODULE)
        ca.write(self.root, "clean/broken.py", "async def f(:\n    pass\n")
        ca.write(self.root, "buggy/a.py", ca.module("A"))
        ca.write(self.root, "suppressed/s.py", ca.module("S").replace(
            "async with self._lock:", "async with self._lock:  # cancelaudit: ignore[CAN102]"))

    def code(self, *args):
        return ca.run_ca(list(args), self.root)

    def assert_code(self, want, *args):
        p = self.code(*args)
        self.assertEqual(p.returncode, want, "cancelaudit %s: exit %d, want %d\nstderr: %s" % (
            " ".join(args), p.returncode, want, ca.err_text(p)))
        return p

    def test_clean_and_findings_every_format(self):
        for fmt in ca.FORMATS:
            self.assert_code(0, "scan", "clean", "--no-db", "--format", fmt)
            self.assert_code(0, "scan", "suppressed", "--no-db", "--format", fmt)
            self.assert_code(1, "scan", "buggy", "--no-db", "--format", fmt)
            self.assert_code(1, "scan", "clean", "buggy", "--no-db", "--format", fmt)

    def test_with_a_database(self):
        db = os.path.join(self.root, "state", "nested", "audit.db")
        self.assert_code(0, "scan", "clean", "--db", db)
        self.assertTrue(os.path.isfile(db), "the database was not created")
        self.assert_code(1, "scan", "buggy", "--db", db)

    def test_output_file(self):
        out = os.path.join(self.root, "report.sarif")
        p = self.assert_code(1, "scan", "buggy", "--no-db", "--format", "sarif", "--output", out)
        self.assertEqual(p.stdout, b"")
        self.assertGreater(os.path.getsize(out), 0)

    def test_baseline_modes(self):
        base = os.path.join(self.root, "b.json")
        self.assert_code(0, "baseline", "buggy", "--output", base)
        self.assert_code(0, "baseline", "clean", "--output", os.path.join(self.root, "empty.json"))
        self.assert_code(0, "scan", "buggy", "--no-db", "--baseline", base)
        ca.write(self.root, "buggy/b.py", ca.module("B"))
        self.assert_code(1, "scan", "buggy", "--no-db", "--baseline", base)

    def test_changed_since_modes(self):
        ca.git(self.root, "init", "-q", "-b", "main")
        ca.git(self.root, "add", "-A")
        ca.git(self.root, "commit", "-q", "-m", "base")
        self.assert_code(0, "scan", "--no-db", "--changed-since", "main")
        ca.write(self.root, "buggy/b.py", ca.module("B"))
        self.assert_code(1, "scan", "--no-db", "--changed-since", "main")
        self.assert_code(2, "scan", "--no-db", "--changed-since", "nope")

    def test_usage_errors(self):
        cases = [
            ("scan", "--bogus"),
            ("scan", "clean", "--no-db", "--frobnicate=1"),
            ("scan", "no/such/path", "--no-db"),
            ("scan", "clean", "no-such-file.py", "--no-db"),
            ("scan", "clean", "--no-db", "--format", "xml"),
            ("scan", "clean", "--no-db", "--format"),
            ("scan", "clean", "--no-db", "--select", "CAN999"),
            ("scan", "clean", "--no-db", "--select", "CAN101,NOPE"),
            ("scan", "clean", "--no-db", "--ignore", "CAN999"),
            ("scan", "clean", "--no-db", "--jobs", "many"),
            ("scan", "clean", "--no-db", "--baseline", "missing.json"),
            ("scan", "clean", "--no-db", "--changed-since", "main"),  # not a git repository
            ("scan", "clean", "--no-db", "--config", "missing.toml"),
            ("baseline", "clean"),  # no --output
            ("baseline", "no/such/path", "--output", "b.json"),
            ("explain", "CAN999"),
            ("no-such-command",),
        ]
        for args in cases:
            p = self.assert_code(2, *args)
            self.assertTrue(ca.err_text(p).startswith("cancelaudit: "), "%s: %r" % (args, ca.err_text(p)))
            self.assertEqual(p.stdout, b"", "%s printed a report" % (args,))

    def test_run_failures(self):
        blocker = ca.write(self.root, "blocker", "a regular file, so nothing can be created under it\n")
        cases = [
            ("scan", "buggy", "--db", os.path.join(blocker, "audit.db")),
            ("scan", "buggy", "--db", os.path.join(blocker, "sub", "audit.db")),
            ("scan", "clean", "--db", "/proc/cancelaudit-test/audit.db"),
            ("scan", "buggy", "--no-db", "--output", os.path.join(blocker, "report.txt")),
            ("baseline", "buggy", "--output", os.path.join(blocker, "b.json")),
        ]
        for args in cases:
            p = self.assert_code(3, *args)
            self.assertTrue(ca.err_text(p).startswith("cancelaudit: "), "%s: %r" % (args, ca.err_text(p)))
            self.assertEqual(p.stdout, b"", "%s printed a report" % (args,))

    def test_per_file_problems_keep_the_code(self):
        p = self.assert_code(0, "scan", "clean", "--no-db")
        self.assertIn("broken.py", ca.err_text(p))


if __name__ == "__main__":
    unittest.main(verbosity=2)
