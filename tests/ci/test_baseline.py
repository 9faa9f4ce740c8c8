#!/usr/bin/env python3
"""Baselines (issue 5): `cancelaudit baseline PATH --output FILE` records the
current findings by fingerprint; `scan --baseline FILE` reports and counts
only the others, says how many were baselined, and exits 1 only for those.

Round trip on a temporary tree with two known gaps: baseline, scan (exit 0,
nothing listed), add a third gap ABOVE an old one (so the old findings move
to other lines: fingerprints must not depend on line numbers), scan (exactly
the new gap in text, github, json and sarif; exit 1), remove it again (exit
0). Also: inline-suppressed findings stay out of the baseline file, and a
missing or malformed baseline file is a usage error (exit 2).
"""

import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402


class Baseline(unittest.TestCase):
    def setUp(self):
        self.root = ca.temp_dir(self)
        self.a = ca.module("A")
        self.b = ca.module("B")
        ca.write(self.root, "src/a.py", self.a)
        ca.write(self.root, "src/b.py", self.b)
        ca.write(self.root, "src/clean.py", ca.CLEAN_MODULE)
        self.base = os.path.join(self.root, "baseline.json")

    def make_baseline(self):
        p = ca.run_ca(["baseline", "src", "--output", self.base], self.root)
        self.assertEqual(p.returncode, 0, ca.err_text(p))
        self.assertEqual(p.stdout, b"", "baseline with --output writes nothing to stdout")
        with open(self.base, encoding="utf-8") as f:
            return json.load(f)

    def test_baseline_file(self):
        doc = self.make_baseline()
        self.assertEqual(doc["tool"]["name"], "cancelaudit")
        self.assertEqual(len(doc["fingerprints"]), 2, doc)
        self.assertEqual(len(set(doc["fingerprints"])), 2, doc)
        self.assertEqual(sorted(f["path"] for f in doc["findings"]), ["src/a.py", "src/b.py"])
        self.assertEqual(sorted(f["fingerprint"] for f in doc["findings"]), sorted(doc["fingerprints"]))

    def test_round_trip(self):
        self.make_baseline()
        args = ["src", "--no-db", "--baseline", self.base]

        res = ca.scan_all_formats(self, args, self.root)
        for fmt, (rc, found, _) in res.items():
            self.assertEqual((rc, found), (0, []), "%s before the new gap" % fmt)
        self.assertIn("; 2 baselined", res["text"][2])
        self.assertEqual(res["json"][2]["scan"]["baselined"], 2)

        # the new gap goes before B.start: B's old finding moves 5 lines down
        new_b = self.b.replace("    async def start", ca.gap_method("first", "2").lstrip("\n") + "\n    async def start")
        ca.write(self.root, "src/b.py", new_b)
        new = ("src/b.py", ca.line_of(new_b, "asyncio.sleep(2)"), 9, "CAN102")
        moved = ca.line_of(new_b, "async with self._lock")
        self.assertNotEqual(moved, ca.MODULE_GAP_LINE)

        res = ca.scan_all_formats(self, args, self.root)
        for fmt, (rc, found, _) in res.items():
            self.assertEqual((rc, found), (1, [new]), "%s with the new gap" % fmt)
        self.assertTrue(res["text"][2].startswith("1 finding (1 CAN102)"), res["text"][2])
        self.assertIn("; 2 baselined", res["text"][2])
        self.assertEqual(res["json"][2]["scan"]["baselined"], 2)
        # SARIF keeps the baselined results, dismissed by an external suppression
        self.assertEqual(sorted(res["sarif"][2]), [
            ("src/a.py", ca.MODULE_GAP_LINE, 9, "CAN102", ("external",)),
            ("src/b.py", moved, 9, "CAN102", ("external",)),
        ])

        ca.write(self.root, "src/b.py", self.b)
        res = ca.scan_all_formats(self, args, self.root)
        for fmt, (rc, found, _) in res.items():
            self.assertEqual((rc, found), (0, []), "%s after removing the new gap" % fmt)

    def test_without_baseline_everything_counts(self):
        self.make_baseline()
        res = ca.scan_all_formats(self, ["src", "--no-db"], self.root)
        for fmt, (rc, found, _) in res.items():
            self.assertEqual((rc, len(found)), (1, 2), fmt)

    def test_suppressed_findings_stay_out(self):
        ca.write(self.root, "src/b.py", self.b.replace(
            "async with self._lock:", "async with self._lock:  # noqa: CAN102"))
        doc = self.make_baseline()
        self.assertEqual([f["path"] for f in doc["findings"]], ["src/a.py"])

    def test_bad_baseline_files(self):
        for name, content in (("missing.json", None), ("garbage.json", "{not json"),
                              ("shape.json", '{"tool": {"name": "cancelaudit"}}')):
            path = os.path.join(self.root, name)
            if content is not None:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)
            p = ca.run_ca(["scan", "src", "--no-db", "--baseline", path], self.root)
            self.assertEqual(p.returncode, 2, "%s: exit %d" % (name, p.returncode))
            self.assertIn("baseline", ca.err_text(p))
            self.assertEqual(p.stdout, b"", name)

    def test_baseline_needs_output(self):
        p = ca.run_ca(["baseline", "src"], self.root)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--output", ca.err_text(p))


if __name__ == "__main__":
    unittest.main(verbosity=2)
