#!/usr/bin/env python3
"""`--format github`: one workflow command per finding, escaped the way the
Actions runner unescapes (issue 5).

GitHub's rules: in the message, `%` -> %25, CR -> %0D, LF -> %0A; in a
property value (file=, title=) also `:` -> %3A and `,` -> %2C. The golden
lines below are exact. File names here carry `,` `:` `%` (and CR/LF, which
Linux allows in a name); a message quotes source text holding `%`.

On a mismatch the test prints the actual lines: when a change in wording is
intended, paste them over GOLDEN and review the diff.
"""

import difflib
import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402

MSG_TAIL = ("no handler, finally or context manager releases it if the task is cancelled here, "
            "and nothing registered it yet")

LATENT = (" (latent: no holder of `self._lock` awaits while holding it, line 11, so acquiring it does not "
          "suspend today; the window opens the day one holder awaits)")

GOLDEN = [
    "::error file=cr%0Dlf%0A.py,line=11,col=9,endLine=12,endColumn=32,title=CAN102::"
    "`proc` (process, acquired line 10) is unowned across `async with self._lock`" + LATENT + ": " + MSG_TAIL,
    "::error file=dir%2C1/x%3Ay%25z.py,line=11,col=9,endLine=12,endColumn=32,title=CAN102::"
    "`proc` (process, acquired line 10) is unowned across `async with self._lock`" + LATENT + ": " + MSG_TAIL,
    "::error file=dir%2C1/x%3Ay%25z.py,line=16,col=9,endLine=16,endColumn=37,title=CAN102::"
    "`proc` (process, acquired line 15) is unowned across `await asyncio.sleep(…)`: " + MSG_TAIL,
    "::error file=pct.py,line=11,col=9,endLine=12,endColumn=32,title=CAN102::"
    "`proc` (process, acquired line 10) is unowned across `async with self._locks[\"5%25\"]`: " + MSG_TAIL,
    "::error file=plain.py,line=16,col=9,endLine=16,endColumn=34,title=CAN102::"
    "`proc` (process, acquired line 15) is unowned across `await asyncio.sleep(…)`: " + MSG_TAIL,
]


class GithubFormat(unittest.TestCase):
    def make_tree(self):
        root = ca.temp_dir(self)
        ca.write(root, "dir,1/x:y%z.py", ca.module("P") + ca.gap_method("later", "100 % 7"))
        ca.write(root, "cr\rlf\n.py", ca.module("Q"))
        # suppressed: not listed; the second gap is
        ca.write(root, "plain.py", ca.module("R").replace(
            "async with self._lock:", "async with self._lock:  # cancelaudit: ignore[CAN102]")
            + ca.gap_method("later", "5%10"))
        ca.write(root, "clean.py", ca.CLEAN_MODULE)
        # a message quoting source text with `%` (calls are shortened to their callee: a subscript is not)
        ca.write(root, "pct.py", ca.module("S").replace("async with self._lock:", 'async with self._locks["5%"]:'))
        return root

    def test_golden_lines(self):
        root = self.make_tree()
        p = ca.run_ca(["scan", ".", "--format", "github", "--no-db"], root)
        self.assertEqual(p.returncode, 1, ca.err_text(p))
        self.assertEqual(p.stderr, b"")
        self.assertTrue(p.stdout.endswith(b"\n"))
        got = ca.out_text(p).split("\n")[:-1]
        if got != GOLDEN:
            diff = "\n".join(difflib.unified_diff(GOLDEN, got, "golden", "actual", lineterm=""))
            self.fail("github lines differ from GOLDEN:\n%s\nactual lines:\n%s" % (diff, "\n".join(map(repr, got))))

    def test_round_trip_matches_text(self):
        """Unescaping each command gives back the path, position and rule the
        text format reports (no line broken by a path's CR/LF)."""
        root = self.make_tree()
        gh = ca.parse_github(ca.out_text(ca.run_ca(["scan", "--format", "github", "--no-db"], root)))
        js = ca.parse_json(ca.out_text(ca.run_ca(["scan", "--format", "json", "--no-db"], root)))[1]
        listed = [f for f in js if "plain.py" != f[0] or f[1] != ca.MODULE_GAP_LINE]
        self.assertEqual(gh, listed)
        self.assertIn(("cr\rlf\n.py", 11, 9, "CAN102"), gh)
        self.assertIn(("dir,1/x:y%z.py", 16, 9, "CAN102"), gh)

    def test_one_command_per_line(self):
        root = self.make_tree()
        out = ca.run_ca(["scan", "--format", "github", "--no-db"], root).stdout
        for line in out.split(b"\n")[:-1]:
            self.assertTrue(line.startswith(b"::error "), line)
            self.assertNotIn(b"\r", line)
            self.assertEqual(line.count(b"::"), 2, line)  # the message never opens a command


if __name__ == "__main__":
    unittest.main(verbosity=2)
