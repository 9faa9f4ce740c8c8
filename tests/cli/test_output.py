#!/usr/bin/env python3
"""Text formats, --statistics and --exit-zero (issue 18).

- `full` (the default, as ruff's): the compiler-style line, then the source
  lines of the acquisition (marked `-`) and the checkpoint (marked `^` under
  exactly its columns, counted in code points, tabs expanded), a `...` row
  for a long gap, a note when the acquisition is below the checkpoint, and
  one `= help:` line per rule; `concise` (`text`) the first lines alone.
- messages name an awaited call by its callee.
- --statistics: counts per rule and per file, text and JSON.
- --exit-zero: findings, exit 0; usage errors still 2.
- every JSON document carries schema_version.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

TEXT_LINE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<rule>CAN\d{3}) ")

# CAN101 at line 15 (the session's cleanup is only under `except Exception`),
# its call long enough to be shortened; CAN102 at line 8 (the lock hand-over),
# acquired on the line above.
TWO = """\
import asyncio
import aiohttp


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task


async def fetch(url):
    session = aiohttp.ClientSession()
    try:
        resp = await asyncio.wait_for(session.get(url, headers={"x": "(y)"}), timeout=3)
    except Exception:
        await session.close()
        raise
    return session, resp
"""

# acquisition far above the checkpoint, a tab and a non-ASCII name before it
FAR = """\
import asyncio


async def far(reg, k):
\tproc = await asyncio.create_subprocess_exec("x")
\ta = 1
\tb = 2
\tc = 3
\td = 4
\tdéjà = await asyncio.sleep(1)
\treg[k] = proc
"""


def run(args, cwd):
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class Tree(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-out-")
        self.root = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


class FullFormat(Tree):
    def test_default_is_full_with_marked_source(self):
        self.write("src/two.py", TWO)
        rc, out, err = run(["scan", "src", "--no-db"], self.root)
        self.assertEqual(rc, 1, err)
        _, explicit, _ = run(["scan", "src", "--no-db", "--format", "full"], self.root)
        self.assertEqual(out, explicit)
        blocks = out.split("\n\n")
        first = blocks[0].splitlines()
        self.assertRegex(first[0], r"^src/two\.py:8:9: CAN102 `task` ")
        self.assertEqual(first[1:], [
            "  |",
            "7 |         task = asyncio.create_task(work())",
            "  |         ---------------------------------- `task` acquired",
            "8 |         async with self._lock:",
            "  |         ^^^^^^^^^^^^^^^^^^^^^^ CAN102",
            "  |",
            "  = help: `cancelaudit explain CAN102` says why this leaks and how to fix it",
        ])
        second = blocks[1].splitlines()
        self.assertRegex(second[0], r"^src/two\.py:15:16: CAN101 ")
        self.assertEqual(second[4], "14 |     try:")
        code = second[5]
        marks = second[6]
        self.assertTrue(code.startswith("15 |         resp = await"), code)
        # the carets sit exactly under the awaited expression, to its end
        start = code.index("await")
        self.assertEqual(marks.index("^"), start)
        self.assertEqual(marks.rstrip().rsplit(" ", 1)[0], " " * 3 + "|" + " " * (start - 4) + "^" * (len(code) - start))
        self.assertTrue(marks.endswith(" CAN101"))
        self.assertRegex(blocks[-1].strip(), r"^2 findings \(1 CAN101, 1 CAN102\) in 1 file")

    def test_long_gap_tab_and_code_points(self):
        self.write("far.py", FAR)
        rc, out, err = run(["scan", "far.py", "--no-db", "--select", "CAN102"], self.root)
        self.assertEqual(rc, 1, err)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^far\.py:10:9: CAN102 ")
        self.assertEqual(lines[1:7], [
            "    |",
            "  5 |     proc = await asyncio.create_subprocess_exec(\"x\")",
            "    |     " + "-" * len('proc = await asyncio.create_subprocess_exec("x")') + " `proc` acquired",
            "... |",
            " 10 |     déjà = await asyncio.sleep(1)",
            "    |            ^^^^^^^^^^^^^^^^^^^^^^ CAN102",
        ])

    def test_concise_is_the_first_lines(self):
        self.write("src/two.py", TWO)
        _, full, _ = run(["scan", "src", "--no-db"], self.root)
        for fmt in ("concise", "text"):
            rc, out, err = run(["scan", "src", "--no-db", "--format", fmt], self.root)
            self.assertEqual(rc, 1, err)
            firsts = [l for l in full.splitlines() if TEXT_LINE.match(l)]
            self.assertEqual(out.splitlines(), firsts + [full.splitlines()[-1]])

    def test_configured_default(self):
        self.write("src/two.py", TWO)
        self.write("cancelaudit.toml", 'output-format = "concise"\n')
        _, out, _ = run(["scan", "src", "--no-db"], self.root)
        self.assertEqual(len(out.splitlines()), 3, out)
        _, out, _ = run(["scan", "src", "--no-db", "--format", "full"], self.root)
        self.assertIn(" |", out)
        self.write("cancelaudit.toml", 'output-format = "fancy"\n')
        rc, _, err = run(["scan", "src", "--no-db"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("output-format", err)

    def test_messages_name_the_callee(self):
        self.write("src/two.py", TWO)
        _, out, _ = run(["scan", "src", "--no-db", "--format", "concise"], self.root)
        self.assertIn("is unowned across `await asyncio.wait_for(…)`:", out)
        self.assertNotIn("headers=", out)
        # the fingerprint still follows the whole checkpoint: changing an argument changes it
        _, a, _ = run(["scan", "src", "--no-db", "--format", "json"], self.root)
        self.write("src/two.py", TWO.replace("timeout=3", "timeout=4"))
        _, b, _ = run(["scan", "src", "--no-db", "--format", "json"], self.root)
        fa = {f["rule"]: f["fingerprint"] for f in json.loads(a)["findings"]}
        fb = {f["rule"]: f["fingerprint"] for f in json.loads(b)["findings"]}
        self.assertEqual(fa["CAN102"], fb["CAN102"])
        self.assertNotEqual(fa["CAN101"], fb["CAN101"])


class Statistics(Tree):
    def setUp(self):
        super().setUp()
        self.write("src/two.py", TWO)
        self.write("src/far.py", FAR)
        self.write("src/lock.py", TWO.replace("fetch", "fetch2").split("\n\n\nasync def")[0] + "\n")

    def test_text_table(self):
        rc, out, err = run(["scan", "src", "--no-db", "--statistics"], self.root)
        self.assertEqual(rc, 1, err)
        _, js, _ = run(["scan", "src", "--no-db", "--format", "json"], self.root)
        findings = json.loads(js)["findings"]
        by_rule, by_file = {}, {}
        for f in findings:
            by_rule[f["rule"]] = by_rule.get(f["rule"], 0) + 1
            by_file[f["path"]] = by_file.get(f["path"], 0) + 1
        lines = out.splitlines()
        self.assertEqual(lines[0].split(), ["count", "rule", "name"])
        rule_rows = []
        i = 1
        while lines[i].strip():
            n, rule, name = lines[i].split()
            rule_rows.append((rule, int(n)))
            self.assertRegex(name, r"^[a-z-]+$")
            i += 1
        self.assertEqual(dict(rule_rows), by_rule)
        self.assertEqual([n for _, n in rule_rows], sorted((n for _, n in rule_rows), reverse=True))
        i += 1
        self.assertEqual(lines[i].split(), ["count", "file"])
        file_rows = {}
        i += 1
        while lines[i].strip():
            n, path = lines[i].split(None, 1)
            file_rows[path] = int(n)
            i += 1
        self.assertEqual(file_rows, by_file)
        self.assertRegex(lines[-1], r"^%d findings " % len(findings))
        self.assertFalse(any(TEXT_LINE.match(l) for l in lines), "statistics replace the findings")
        rc, quiet, _ = run(["scan", "src", "--no-db", "--statistics", "-q"], self.root)
        self.assertEqual(quiet.splitlines(), lines[:-1])

    def test_json(self):
        rc, out, err = run(["scan", "src", "--no-db", "--statistics", "--format", "json"], self.root)
        self.assertEqual(rc, 1, err)
        doc = json.loads(out)
        self.assertEqual(set(doc), {"tool", "statistics", "schema_version"})
        self.assertEqual(doc["schema_version"], 1)
        st = doc["statistics"]
        self.assertEqual(set(st), {"total", "rules", "files"})
        self.assertEqual(st["total"], sum(r["count"] for r in st["rules"]))
        self.assertEqual(st["total"], sum(f["count"] for f in st["files"]))
        for r in st["rules"]:
            self.assertEqual(set(r), {"rule", "name", "count"})
        for f in st["files"]:
            self.assertEqual(set(f), {"path", "count"})

    def test_other_formats_refused(self):
        rc, _, err = run(["scan", "src", "--no-db", "--statistics", "--format", "sarif"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("--statistics", err)


class ExitZero(Tree):
    def test_findings_exit_0(self):
        self.write("src/two.py", TWO)
        rc, out, err = run(["scan", "src", "--no-db", "--exit-zero"], self.root)
        self.assertEqual(rc, 0, err)
        self.assertIn("CAN101", out)
        rc, _, _ = run(["scan", "src", "--no-db", "--exit-zero", "--format", "json"], self.root)
        self.assertEqual(rc, 0)
        rc, _, _ = run(["scan", "missing", "--no-db", "--exit-zero"], self.root)
        self.assertEqual(rc, 2)
        rc, _, _ = run(["scan", "src", "--no-db", "--exit-zero", "--select", "NOPE"], self.root)
        self.assertEqual(rc, 2)


class SchemaVersion(Tree):
    def test_every_json_document(self):
        self.write("src/two.py", TWO)
        db = os.path.join(self.root, "a.db")
        docs = {}
        _, docs["scan"], _ = run(["scan", "src", "--db", db, "--format", "json"], self.root)
        run(["scan", "src", "--db", db, "--format", "json"], self.root)
        _, docs["matrix"], _ = run(["matrix", "--db", db, "--format", "json"], self.root)
        _, docs["diff"], _ = run(["diff", "--db", db, "--format", "json", "1", "2"], self.root)
        run(["baseline", "src", "--output", os.path.join(self.root, "b.json")], self.root)
        with open(os.path.join(self.root, "b.json")) as f:
            docs["baseline"] = f.read()
        for name, text in docs.items():
            with self.subTest(doc=name):
                doc = json.loads(text)
                self.assertEqual(doc["schema_version"], 1)
                self.assertEqual(list(doc)[-1], "schema_version")  # added at the end, as the contract asks
                self.assertEqual(doc["tool"]["name"], "cancelaudit")


if __name__ == "__main__":
    unittest.main(verbosity=2)
