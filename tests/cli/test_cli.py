#!/usr/bin/env python3
"""CLI contract tests for `cancelaudit scan` (DESIGN §6): exit codes, --help
and --version, the JSON object's field names and types, text output,
inline suppression, --select/--ignore, default and user excludes, --output,
and code-point columns.

Each test builds a small tree in a temporary directory and runs the binary
there (so finding paths are relative to it). Standard library only.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# One CAN102 (the task is unowned across the lock hand-over) at line 7 and
# one CAN101 (the session's cleanup runs only under `except Exception`) at
# line 15.
BUG = """\
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
        resp = await session.get(url)
    except Exception:
        await session.close()
        raise
    return session, resp
"""
BUG_CAN102_LINE = 8
BUG_CAN101_LINE = 15

CLEAN = """\
import asyncio


async def ping(client):
    await asyncio.sleep(0)
    return await client.ping()
"""

# Only the lock hand-over; the suppression comment goes on line 8.
LOCK_ONLY = """\
import asyncio


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:{comment}
            self._tasks[key] = task
"""

TEXT_LINE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<rule>CAN\d{3}) \S")

FINDING_FIELDS = {
    "rule": str, "severity": str, "path": str, "line": int, "column": int, "end_line": int,
    "end_column": int, "function": str, "backend": str, "resource": str, "resource_kind": str,
    "acquired_line": int, "handlers": list, "message": str, "fingerprint": str, "suppressed": bool,
}
COVERAGE_FIELDS = {
    "family": str, "backend": str, "boundary": str, "status": str, "rules": list, "protection": str, "path": str,
}
FAMILY_FIELDS = {"name": str, "kind": str, "backends": list, "excluded": list}


def write(root, rel, text, mode="w"):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as f:
        f.write(text)
    return path


def run(args, cwd, check_signal=True):
    """Run the binary; return (exit code, stdout, stderr)."""
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True,
                       encoding="utf-8", errors="replace", timeout=120)
    if check_signal and p.returncode < 0:
        raise AssertionError("killed by signal %d: %s\n%s" % (-p.returncode, args, p.stderr))
    return p.returncode, p.stdout, p.stderr


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Tree(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-cli-")
        self.root = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def scan_json(self, *args, expect_rc=None):
        rc, out, err = run(["scan", "--format", "json", "--no-progress"] + list(args), self.root)
        self.assertIn(rc, (0, 1), "scan failed (%d): %s" % (rc, err))
        if expect_rc is not None:
            self.assertEqual(rc, expect_rc, err)
        try:
            doc = json.loads(out)
        except ValueError as e:
            self.fail("stdout is not one JSON object (%s): %r" % (e, out[:500]))
        return rc, doc, err


class ExitCodes(Tree):
    def test_clean_tree_exits_0(self):
        write(self.root, "src/ok.py", CLEAN)
        rc, out, err = run(["scan", "src", "--no-db"], self.root)
        self.assertEqual(rc, 0, out + err)

    def test_findings_exit_1(self):
        write(self.root, "src/bug.py", BUG)
        rc, out, err = run(["scan", "src", "--no-db"], self.root)
        self.assertEqual(rc, 1, out + err)

    def test_usage_errors_exit_2(self):
        write(self.root, "src/bug.py", BUG)
        cases = [
            ["scan", "does/not/exist", "--no-db"],
            ["scan", "src", "does-not-exist.py", "--no-db"],
            ["scan", "src", "--no-such-option", "--no-db"],
            ["scan", "src", "--format", "xml", "--no-db"],
            ["scan", "src", "--format=yaml", "--no-db"],
            ["scan", "src", "--select", "CAN999", "--no-db"],
            ["scan", "src", "--ignore", "NOPE", "--no-db"],
            ["scan", "src", "--select", "CAN101,BOGUS", "--no-db"],
            ["frobnicate"],
            [],
        ]
        for args in cases:
            with self.subTest(args=args):
                rc, out, err = run(args, self.root)
                self.assertEqual(rc, 2, "args %s: rc %d\n%s%s" % (args, rc, out, err))
                self.assertTrue(err.strip(), "a usage error says why on stderr")
        # the nonexistent path is named
        rc, out, err = run(["scan", "does/not/exist", "--no-db"], self.root)
        self.assertIn("does/not/exist", err)

    def test_unwritable_db_exits_3(self):
        write(self.root, "src/bug.py", BUG)
        write(self.root, "plain-file", "not a directory\n")
        rc, out, err = run(["scan", "src", "--db", "plain-file/sub/audit.db"], self.root)
        self.assertEqual(rc, 3, out + err)
        self.assertIn("plain-file", err)
        rc, out, err = run(["scan", "src", "--db", "plain-file/audit.db"], self.root)
        self.assertEqual(rc, 3, out + err)


class HelpAndVersion(Tree):
    def test_help(self):
        rc, out, err = run(["--help"], self.root)
        self.assertEqual(rc, 0, err)
        for sub in ("scan", "matrix", "report", "diff", "rules", "explain"):
            self.assertRegex(out, r"\b%s\b" % sub, "--help does not mention %s" % sub)
        for opt in ("--format", "--output", "--db", "--no-db", "--select", "--ignore", "--exclude"):
            self.assertIn(opt, out)
        self.assertRegex(out, r"(?i)example")

    def test_version(self):
        rc, out, err = run(["--version"], self.root)
        self.assertEqual(rc, 0, err)
        m = re.match(r"^cancelaudit (\d+\.\d+\.\d+\S*)\s*$", out)
        self.assertTrue(m, out)
        write(self.root, "ok.py", CLEAN)
        _, doc, _ = self.scan_json("ok.py", "--no-db", expect_rc=0)
        self.assertEqual(doc["tool"]["version"], m.group(1))


class JsonContract(Tree):
    def check_finding(self, f):
        for name, typ in FINDING_FIELDS.items():
            self.assertIn(name, f, "finding lacks %r: %s" % (name, f))
            if typ is int:
                self.assertTrue(is_int(f[name]), "%s is not an int: %r" % (name, f[name]))
            else:
                self.assertIsInstance(f[name], typ, "%s: %r" % (name, f[name]))
        self.assertRegex(f["rule"], r"^CAN\d{3}$")
        self.assertIn(f["severity"], ("error", "warning", "note"))
        self.assertFalse(os.path.isabs(f["path"]), f["path"])
        self.assertFalse(f["path"].startswith("./"), f["path"])
        self.assertGreaterEqual(f["line"], 1)
        self.assertGreaterEqual(f["column"], 1)
        self.assertGreaterEqual(f["end_line"], f["line"])
        if f["end_line"] == f["line"]:
            self.assertGreaterEqual(f["end_column"], f["column"])
        self.assertGreaterEqual(f["acquired_line"], 1)
        self.assertTrue(f["function"] and f["resource"] and f["resource_kind"] and f["message"])
        self.assertTrue(f["fingerprint"])
        for h in f["handlers"]:
            self.assertIsInstance(h, dict)
            self.assertTrue(is_int(h.get("line")), h)
            self.assertIsInstance(h.get("catches"), str, h)

    def check_cell(self, c):
        self.assertIn(c.get("status"), ("gap", "covered", "no-window", "inherited", "absent"), c)
        absent = c["status"] == "absent"
        for name, typ in COVERAGE_FIELDS.items():
            self.assertIn(name, c, "coverage cell lacks %r: %s" % (name, c))
            if absent and name == "path" and c[name] is None:
                continue  # the backend lacks the method: no place to point at
            self.assertIsInstance(c[name], typ, "%s: %r" % (name, c[name]))
        self.assertIn("line", c)
        if absent:
            self.assertTrue(c["line"] is None or is_int(c["line"]), c)
        else:
            self.assertTrue(is_int(c["line"]) and c["line"] >= 1, c)
            self.assertFalse(os.path.isabs(c["path"]), c)
        for r in c["rules"]:
            self.assertRegex(r, r"^CAN\d{3}$")
        if c["status"] == "gap":
            self.assertTrue(c["rules"], c)

    def test_fields_and_types(self):
        write(self.root, "src/bug.py", BUG)
        # two backends with a shared async boundary, for coverage cells
        write(self.root, "providers/alpha/client.py", """\
import asyncio


class AlphaClient:
    async def open_shell(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task
""")
        write(self.root, "providers/beta/client.py", """\
import asyncio


class BetaClient:
    async def open_shell(self, key):
        task = asyncio.create_task(work())
        try:
            async with self._lock:
                self._tasks[key] = task
        except BaseException:
            task.cancel()
            raise
""")
        rc, doc, err = self.scan_json("src", "providers", "--no-db", expect_rc=1)
        self.assertIsInstance(doc, dict)
        for key in ("tool", "scan", "findings", "coverage"):
            self.assertIn(key, doc)
        self.assertEqual(doc["tool"].get("name"), "cancelaudit")
        self.assertIsInstance(doc["tool"].get("version"), str)
        scan = doc["scan"]
        self.assertIn("id", scan)
        self.assertIsNone(scan["id"], "--no-db: scan.id is null")
        for k in ("files_scanned", "files_skipped", "errors"):
            self.assertTrue(is_int(scan.get(k)), "scan.%s: %r" % (k, scan.get(k)))
        self.assertEqual(scan["files_scanned"], 3)
        self.assertEqual(scan["errors"], 0)
        self.assertIsInstance(doc["findings"], list)
        self.assertIsInstance(doc["coverage"], list)
        for f in doc["findings"]:
            self.check_finding(f)
        by_rule = {(f["path"], f["rule"]): f for f in doc["findings"]}
        f102 = by_rule.get(("src/bug.py", "CAN102"))
        self.assertIsNotNone(f102, doc["findings"])
        self.assertEqual(f102["line"], BUG_CAN102_LINE)
        self.assertEqual(f102["function"], "Pool.start")
        self.assertEqual(f102["resource"], "task")
        self.assertEqual(f102["resource_kind"], "task")
        self.assertEqual(f102["acquired_line"], 7)
        self.assertEqual(f102["handlers"], [])
        self.assertFalse(f102["suppressed"])
        f101 = by_rule.get(("src/bug.py", "CAN101"))
        self.assertIsNotNone(f101, doc["findings"])
        self.assertEqual(f101["line"], BUG_CAN101_LINE)
        self.assertEqual(f101["function"], "fetch")
        self.assertEqual(f101["resource"], "session")
        self.assertEqual(f101["handlers"], [{"line": 16, "catches": "Exception"}])
        self.assertTrue(("providers/alpha/client.py", "CAN102") in by_rule)
        self.assertFalse(any(f["path"].startswith("providers/beta/") for f in doc["findings"]))
        # the matrix: open_shell is a boundary of alpha and beta
        self.assertTrue(doc["coverage"], "two backends sharing open_shell give coverage cells")
        for c in doc["coverage"]:
            self.check_cell(c)
        cells = {(c["backend"], c["boundary"]): c for c in doc["coverage"]}
        self.assertEqual(cells.get(("alpha", "open_shell"), {}).get("status"), "gap", cells)
        # AlphaClient and BetaClient are duck-typed siblings: one family, named from the classes
        self.assertEqual([f["name"] for f in doc["families"]], ["*Client"])
        for f in doc["families"]:
            for name, typ in FAMILY_FIELDS.items():
                self.assertIsInstance(f.get(name), typ, "family %s: %r" % (name, f))
            if f["base"] is None:  # duck-typed: no base to point at
                self.assertIsNone(f["line"], f)
        self.assertEqual({c["family"] for c in doc["coverage"]}, {"*Client"})
        self.assertEqual(sorted(b["name"] for b in doc["families"][0]["backends"]), ["alpha", "beta"])
        self.assertIn("CAN102", cells[("alpha", "open_shell")]["rules"])
        self.assertEqual(cells.get(("beta", "open_shell"), {}).get("status"), "covered", cells)

    def test_scan_id_is_int_with_db(self):
        write(self.root, "src/bug.py", BUG)
        _, doc, _ = self.scan_json("src", "--db", "audit.db", expect_rc=1)
        self.assertTrue(is_int(doc["scan"]["id"]) and doc["scan"]["id"] >= 1, doc["scan"])
        _, doc2, _ = self.scan_json("src", "--db", "audit.db", expect_rc=1)
        self.assertGreater(doc2["scan"]["id"], doc["scan"]["id"])

    def test_paths_relative_to_cwd(self):
        write(self.root, "src/pkg/bug.py", BUG)
        for arg in ("src", "./src", os.path.join(self.root, "src"), "src/pkg/bug.py"):
            with self.subTest(arg=arg):
                _, doc, _ = self.scan_json(arg, "--no-db", expect_rc=1)
                self.assertEqual({f["path"] for f in doc["findings"]}, {"src/pkg/bug.py"})

    def test_fingerprint_survives_line_shift(self):
        write(self.root, "src/bug.py", BUG)
        _, a, _ = self.scan_json("src", "--no-db", expect_rc=1)
        write(self.root, "src/bug.py", "# a comment\n\n\n" + BUG)
        _, b, _ = self.scan_json("src", "--no-db", expect_rc=1)
        fa = {f["rule"]: f for f in a["findings"]}
        fb = {f["rule"]: f for f in b["findings"]}
        self.assertEqual(set(fa), set(fb))
        for rule in fa:
            self.assertEqual(fb[rule]["line"], fa[rule]["line"] + 3)
            self.assertEqual(fb[rule]["fingerprint"], fa[rule]["fingerprint"], rule)
        self.assertNotEqual(fa["CAN101"]["fingerprint"], fa["CAN102"]["fingerprint"])


class TextOutput(Tree):
    def test_compiler_style_lines_and_one_summary(self):
        write(self.root, "src/bug.py", BUG)
        write(self.root, "src/ok.py", CLEAN)
        rc, out, err = run(["scan", "src", "--no-db", "--no-progress", "--format", "concise"], self.root)
        self.assertEqual(rc, 1, err)
        lines = [l for l in out.splitlines() if l.strip()]
        matching = [l for l in lines if TEXT_LINE.match(l)]
        others = [l for l in lines if not TEXT_LINE.match(l)]
        self.assertEqual(len(matching), 2, out)
        self.assertEqual(len(others), 1, "exactly one summary line: %r" % others)
        self.assertIs(TEXT_LINE.match(lines[-1]), None, "the summary comes last")
        got = sorted((m["path"], int(m["line"]), m["rule"]) for m in map(TEXT_LINE.match, matching))
        self.assertEqual(got, sorted([("src/bug.py", BUG_CAN102_LINE, "CAN102"),
                                      ("src/bug.py", BUG_CAN101_LINE, "CAN101")]))
        # the text positions agree with the JSON ones
        _, doc, _ = self.scan_json("src", "--no-db")
        js = sorted((f["path"], f["line"], f["column"], f["rule"]) for f in doc["findings"])
        tx = sorted((m["path"], int(m["line"]), int(m["col"]), m["rule"]) for m in map(TEXT_LINE.match, matching))
        self.assertEqual(js, tx)

    def test_clean_text_has_only_the_summary(self):
        write(self.root, "src/ok.py", CLEAN)
        rc, out, err = run(["scan", "src", "--no-db", "--no-progress"], self.root)
        self.assertEqual(rc, 0, err)
        lines = [l for l in out.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, out)
        self.assertIsNone(TEXT_LINE.match(lines[0]))


class Suppression(Tree):
    def scan_lock_only(self, comment):
        write(self.root, "src/lock.py", LOCK_ONLY.format(comment=comment))
        return self.scan_json("src", "--no-db")

    def test_unsuppressed_baseline(self):
        rc, doc, _ = self.scan_lock_only("")
        self.assertEqual(rc, 1)
        self.assertEqual([(f["rule"], f["line"], f["suppressed"]) for f in doc["findings"]], [("CAN102", 7, False)])

    def test_inline_suppressions(self):
        for comment in ("  # cancelaudit: ignore[CAN102]", "  # noqa: CAN102", "  # noqa: E501, CAN102",
                        "  # cancelaudit: ignore[CAN101,CAN102]", "  # noqa"):
            with self.subTest(comment=comment):
                rc, doc, _ = self.scan_lock_only(comment)
                self.assertEqual([(f["rule"], f["suppressed"]) for f in doc["findings"]], [("CAN102", True)])
                self.assertEqual(rc, 0, "a suppressed finding alone gives exit 0")
                rc, out, err = run(["scan", "src", "--no-db", "--no-progress"], self.root)
                self.assertEqual(rc, 0, out + err)

    def test_other_codes_do_not_suppress(self):
        for comment in ("  # noqa: E501", "  # cancelaudit: ignore[CAN101]", "  # noqa: CAN101"):
            with self.subTest(comment=comment):
                rc, doc, _ = self.scan_lock_only(comment)
                self.assertEqual([(f["rule"], f["suppressed"]) for f in doc["findings"]], [("CAN102", False)])
                self.assertEqual(rc, 1)

    def test_suppressed_and_unsuppressed_mix(self):
        write(self.root, "src/lock.py", LOCK_ONLY.format(comment="  # noqa: CAN102"))
        write(self.root, "src/bug.py", BUG)
        rc, doc, _ = self.scan_json("src", "--no-db")
        self.assertEqual(rc, 1)
        sup = {(f["path"], f["suppressed"]) for f in doc["findings"]}
        self.assertIn(("src/lock.py", True), sup)
        self.assertIn(("src/bug.py", False), sup)


class SelectIgnore(Tree):
    def rules(self, *args):
        rc, doc, _ = self.scan_json("src", "--no-db", *args)
        got = sorted(f["rule"] for f in doc["findings"])
        self.assertEqual(rc, 1 if got else 0)
        return got

    def test_select_and_ignore(self):
        write(self.root, "src/bug.py", BUG)
        self.assertEqual(self.rules(), ["CAN101", "CAN102"])
        self.assertEqual(self.rules("--select", "CAN101"), ["CAN101"])
        self.assertEqual(self.rules("--select=CAN102"), ["CAN102"])
        self.assertEqual(self.rules("--select", "CAN101,CAN102"), ["CAN101", "CAN102"])
        self.assertEqual(self.rules("--select", "CAN1"), ["CAN101", "CAN102"])
        self.assertEqual(self.rules("--select", "CAN2"), [])
        self.assertEqual(self.rules("--ignore", "CAN102"), ["CAN101"])
        self.assertEqual(self.rules("--ignore", "CAN1"), [])
        self.assertEqual(self.rules("--select", "CAN1", "--ignore", "CAN101"), ["CAN102"])


class Excludes(Tree):
    def test_default_excludes(self):
        write(self.root, "proj/src/bug.py", BUG)
        for d in (".venv", "node_modules", "__pycache__", "myenv", ".git", "pkg/node_modules"):
            write(self.root, "proj/%s/hidden_bug.py" % d, BUG)
        write(self.root, "proj/myenv/pyvenv.cfg", "home = /usr/bin\n")
        _, doc, _ = self.scan_json("proj", "--no-db", expect_rc=1)
        paths = {f["path"] for f in doc["findings"]}
        self.assertEqual(paths, {"proj/src/bug.py"})
        self.assertEqual(doc["scan"]["files_scanned"], 1)
        # a directory named explicitly is scanned even if its name is a default exclude
        _, doc, _ = self.scan_json("proj/node_modules", "--no-db", expect_rc=1)
        self.assertEqual({f["path"] for f in doc["findings"]}, {"proj/node_modules/hidden_bug.py"})

    def test_user_exclude(self):
        write(self.root, "src/bug.py", BUG)
        write(self.root, "src/vendor/lib.py", BUG)
        write(self.root, "src/gen_api.py", BUG)
        _, doc, _ = self.scan_json("src", "--no-db", expect_rc=1)
        self.assertEqual({f["path"] for f in doc["findings"]}, {"src/bug.py", "src/vendor/lib.py", "src/gen_api.py"})
        _, doc, _ = self.scan_json("src", "--no-db", "--exclude", "vendor", "--exclude=*/gen_*.py", expect_rc=1)
        self.assertEqual({f["path"] for f in doc["findings"]}, {"src/bug.py"})
        rc, doc, _ = self.scan_json("src", "--no-db", "--exclude", "*.py")
        self.assertEqual((rc, doc["findings"]), (0, []))


class Output(Tree):
    def test_output_file(self):
        write(self.root, "src/bug.py", BUG)
        rc, out, err = run(["scan", "src", "--no-db", "--format", "json", "--output", "report.json"], self.root)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out.strip(), "", "the report goes to the file, not stdout")
        with open(os.path.join(self.root, "report.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(len(doc["findings"]), 2)
        rc, out, err = run(["scan", "src", "--no-db", "-o", "report.txt"], self.root)
        self.assertEqual(rc, 1, err)
        with open(os.path.join(self.root, "report.txt"), encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(len([l for l in text.splitlines() if TEXT_LINE.match(l)]), 2)
        self.assertNotIn("\x1b[", text, "no colour codes in a file")

    def test_output_unwritable(self):
        write(self.root, "src/ok.py", CLEAN)
        write(self.root, "plain-file", "x\n")
        rc, out, err = run(["scan", "src", "--no-db", "--output", "plain-file/out.json"], self.root)
        self.assertGreaterEqual(rc, 2, out + err)
        self.assertTrue(err.strip())


class Columns(Tree):
    def test_columns_are_code_points(self):
        line = '        label = "h\u00e9llo \u20ac \U0001f600"; resp = await session.get(url)'
        src = ("import aiohttp\n\n\nasync def fetch(url):\n"
               "    session = aiohttp.ClientSession()\n"
               "    if url:\n" + line + "\n    return session, resp\n")
        write(self.root, "src/uni.py", src)
        _, doc, _ = self.scan_json("src", "--no-db", expect_rc=1)
        self.assertEqual(len(doc["findings"]), 1, doc["findings"])
        f = doc["findings"][0]
        self.assertEqual(f["line"], 7)
        self.assertEqual(f["column"], line.index("await") + 1)
        self.assertEqual(f["end_column"], line.index("(url)") + len("(url)") + 1)
        self.assertNotEqual(f["column"], len(line[:line.index("await")].encode("utf-8")) + 1)


if __name__ == "__main__":
    if not os.access(BINARY, os.X_OK):
        sys.stderr.write("cancelaudit binary not found: %s\n" % BINARY)
        sys.exit(1)
    unittest.main(verbosity=2)
