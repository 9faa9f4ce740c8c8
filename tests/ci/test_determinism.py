#!/usr/bin/env python3
"""Deterministic output (issue 5): findings come out ordered by (path, line,
column, rule) in every format, and the output does not depend on --jobs.

Paths compare as bytes of their UTF-8 form (strcmp), so the temporary tree
mixes names that sort differently under other orders: upper case before
lower, `-` `.` `/` `_` around a shared stem, a directory named like a file's
stem, non-ASCII. Several gaps per file, a suppressed one and files with
syntax errors (tool notifications in SARIF) are included. Each format is
run with --jobs 1, 2 and 4 (and twice with 4) and must be byte-identical,
SARIF after dropping the invocation times; the diagnostics on stderr must be
the same set (their order follows the workers). corpus/ is compared the
same way.
"""

import json
import os
import re
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402

NAMES = ["B.py", "a.py", "a/b.py", "a/a.py", "a_b.py", "a-b.py", "a.b.py", "ab.py", "z/ä.py", "z/é.py",
         "z/e.py", "Z.py", "sub/deeper/m.py", "sub.py"]
JOBS = ["1", "2", "4", "4"]
TIMES = re.compile(rb'"(startTimeUtc|endTimeUtc)": "[^"]*"')


def sort_key(f):
    return (f[0].encode("utf-8"), f[1], f[2], f[3])


class Determinism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="ca-ci-")
        cls.root = os.path.realpath(cls._tmp.name)
        # reversed creation order, so a directory listing in creation order is not sorted
        for i, name in enumerate(reversed(NAMES)):
            text = ca.module("C%d" % i)
            for k in range(i % 3):
                text += ca.gap_method("g%d" % k, str(k))
            if i == 4:
                text = text.replace("async with self._lock:", "async with self._lock:  # noqa: CAN102")
            ca.write(cls.root, name, text)
        for name in ("broken1.py", "a/broken2.py", "z/broken3.py"):
            ca.write(cls.root, name, "async def f(:\n    pass\n")

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def runs(self, cwd, path, fmt):
        outs, errs = [], []
        for j in JOBS:
            p = ca.run_ca(["scan", path, "--no-db", "--format", fmt, "--jobs", j], cwd)
            self.assertIn(p.returncode, (0, 1), ca.err_text(p))
            outs.append(TIMES.sub(rb'"\1": "T"', p.stdout) if fmt == "sarif" else p.stdout)
            errs.append(sorted(p.stderr.split(b"\n")))
        return outs, errs

    def check_jobs(self, cwd, path):
        for fmt in ca.FORMATS:
            outs, errs = self.runs(cwd, path, fmt)
            for j, out, err in zip(JOBS[1:], outs[1:], errs[1:]):
                self.assertEqual(out, outs[0], "%s: --format %s differs between --jobs 1 and --jobs %s" % (path, fmt, j))
                self.assertEqual(err, errs[0], "%s: diagnostics differ between --jobs 1 and --jobs %s" % (path, j))

    def test_jobs_do_not_change_output(self):
        self.check_jobs(self.root, ".")

    def test_jobs_do_not_change_output_corpus(self):
        self.check_jobs(ca.SOURCE_DIR, "corpus")

    def test_order_in_every_format(self):
        res = ca.scan_all_formats(self, [".", "--no-db", "--jobs", "4"], self.root)
        listed = {fmt: found for fmt, (_, found, _) in res.items()}
        self.assertGreater(len(listed["json"]), len(NAMES), "the tree should give several findings per file")
        for fmt, found in listed.items():
            self.assertEqual(found, sorted(found, key=sort_key), "--format %s is not in (path, line, column, rule) order" % fmt)
        # the same findings everywhere: json lists suppressed ones too (flagged), the others do not
        doc = res["json"][2]
        unsuppressed = [(f["path"], f["line"], f["column"], f["rule"]) for f in doc["findings"] if not f["suppressed"]]
        for fmt in ("text", "github", "sarif"):
            self.assertEqual(listed[fmt], unsuppressed, fmt)
        # SARIF: every result (suppressed included) in order; notifications by path
        sarif = json.loads(ca.out_text(ca.run_ca(["scan", ".", "--no-db", "--format", "sarif"], self.root)))
        run = sarif["runs"][0]
        keys = [(ca.sarif_uri_to_path(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]),
                 r["locations"][0]["physicalLocation"]["region"]["startLine"],
                 r["locations"][0]["physicalLocation"]["region"].get("startColumn", 0), r["ruleId"])
                for r in run["results"]]
        self.assertEqual(keys, sorted(keys, key=sort_key))
        self.assertTrue(any(r.get("suppressions") for r in run["results"]))
        notes = [ca.sarif_uri_to_path(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                 for n in run["invocations"][0].get("toolExecutionNotifications", [])]
        self.assertEqual(notes, sorted(notes, key=lambda p: p.encode("utf-8")))
        self.assertEqual(len(notes), 3, notes)


if __name__ == "__main__":
    unittest.main(verbosity=2)
