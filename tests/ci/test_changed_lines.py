#!/usr/bin/env python3
"""Changed-lines mode (issue 5, DESIGN §6): `scan --changed-since REV` keeps
a finding when its window (acquisition to unprotected checkpoint, or a
handler of it) touches a line changed since REV per `git diff REV`, working
tree and untracked files included; everything else is counted, not listed.

A pull-request-style run on a temporary repository made here: `main` holds
two known gaps (x.py, y.py); branch `feature` adds a third in y.py. From the
repository root, `--changed-since main` lists only the third in text,
github, json and sarif and exits 1; a branch without a new gap exits 0.
Also: an edit inside an old gap's window brings that gap back; uncommitted
and untracked changes count; paths stay relative to the cwd when run from a
subdirectory; outside a repository, or with an unknown revision, exit 2
with a clear message.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402


class ChangedLines(unittest.TestCase):
    def setUp(self):
        self.repo = os.path.join(ca.temp_dir(self), "repo")
        os.makedirs(self.repo)
        self.x = ca.module("X")
        self.y = ca.module("Y")
        ca.write(self.repo, "x.py", self.x)
        ca.write(self.repo, "pkg/y.py", self.y)
        ca.write(self.repo, "clean.py", ca.CLEAN_MODULE)
        ca.git(self.repo, "init", "-q", "-b", "main")
        ca.git(self.repo, "add", "-A")
        ca.git(self.repo, "commit", "-q", "-m", "base: two known gaps")
        self.base_sha = ca.git(self.repo, "rev-parse", "HEAD").strip()

    def commit_all(self, msg):
        ca.git(self.repo, "add", "-A")
        ca.git(self.repo, "commit", "-q", "-m", msg)

    def scan(self, *extra, cwd=None):
        return ca.scan_all_formats(self, ["--no-db"] + list(extra), cwd or self.repo)

    def assert_listed(self, res, rc, expected, what):
        for fmt, (got_rc, found, _) in res.items():
            self.assertEqual((got_rc, found), (rc, expected), "%s: %s" % (what, fmt))

    def test_base_itself_is_clean(self):
        self.assert_listed(self.scan("--changed-since", "main"), 0, [], "no change")
        # without the mode the two known gaps are reported
        res = self.scan()
        self.assertEqual(len(res["json"][1]), 2)

    def test_pull_request_adds_a_third_gap(self):
        ca.git(self.repo, "checkout", "-q", "-b", "feature")
        new_y = self.y + ca.gap_method("again", "3")
        ca.write(self.repo, "pkg/y.py", new_y)
        self.commit_all("feature: third gap")
        third = ("pkg/y.py", ca.line_of(new_y, "asyncio.sleep(3)"), 9, "CAN102")
        for rev in ("main", self.base_sha):
            res = self.scan("--changed-since", rev)
            self.assert_listed(res, 1, [third], "--changed-since %s" % rev)
            self.assertIn("; 0 baselined; 2 outside the changed lines", res["text"][2])
            sarif_hidden = sorted(h[:4] for h in res["sarif"][2])
            self.assertEqual(sarif_hidden, [("pkg/y.py", ca.MODULE_GAP_LINE, 9, "CAN102"),
                                            ("x.py", ca.MODULE_GAP_LINE, 9, "CAN102")])
        # the same PR run from a subdirectory: paths relative to the cwd
        res = self.scan(".", "--changed-since", "main", cwd=os.path.join(self.repo, "pkg"))
        self.assert_listed(res, 1, [("y.py",) + third[1:]], "from pkg/")

    def test_pull_request_without_new_gap(self):
        ca.git(self.repo, "checkout", "-q", "-b", "harmless")
        ca.write(self.repo, "pkg/y.py", self.y + "\n\ndef helper():\n    return 1\n")
        ca.write(self.repo, "clean.py", ca.CLEAN_MODULE + "\n# reviewed\n")
        self.commit_all("harmless")
        self.assert_listed(self.scan("--changed-since", "main"), 0, [], "harmless branch")

    def test_edit_inside_an_old_window(self):
        # the checkpoint line of x.py's gap changes: the old gap is in the diff
        ca.write(self.repo, "x.py", self.x.replace("async with self._lock:", "async with self._lock:  # edited"))
        self.assert_listed(self.scan("--changed-since", "HEAD"), 1,
                           [("x.py", ca.MODULE_GAP_LINE, 9, "CAN102")], "edited window")

    def test_working_tree_and_untracked_files(self):
        new_x = self.x + ca.gap_method("dirty", "4")
        ca.write(self.repo, "x.py", new_x)  # modified, not committed
        ca.write(self.repo, "new/z.py", ca.module("Z"))  # untracked
        self.assert_listed(self.scan("--changed-since", "main"), 1, [
            ("new/z.py", ca.MODULE_GAP_LINE, 9, "CAN102"),
            ("x.py", ca.line_of(new_x, "asyncio.sleep(4)"), 9, "CAN102"),
        ], "working tree")

    def test_unknown_revision(self):
        for rev in ("no-such-branch", "--cached", "main~5"):
            p = ca.run_ca(["scan", "--no-db", "--changed-since=" + rev], self.repo)
            self.assertEqual(p.returncode, 2, "%s: exit %d" % (rev, p.returncode))
            self.assertIn("unknown revision", ca.err_text(p), rev)
            self.assertEqual(p.stdout, b"", rev)

    def test_outside_a_repository(self):
        outside = os.path.join(os.path.dirname(self.repo), "plain")
        ca.write(outside, "x.py", self.x)
        p = ca.run_ca(["scan", "--no-db", "--changed-since", "main"], outside)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not inside a git repository", ca.err_text(p))
        self.assertEqual(p.stdout, b"")


if __name__ == "__main__":
    unittest.main(verbosity=2)
