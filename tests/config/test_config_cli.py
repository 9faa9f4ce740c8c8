#!/usr/bin/env python3
"""Configuration through the CLI (DESIGN §6, docs/configuration.md):
discovery of pyproject.toml / cancelaudit.toml walking up from the scanned
path, --config and --no-config, exit 2 with FILE:LINE and the key for an
unknown key or a wrong type, catalog extras (an acquirer the built-in
catalog does not know), backend maps in the JSON `backend` field, and
select/ignore/strict/exclude/max-size from the file merged with the command
line the way ruff users expect.

Every test builds its tree in a temporary directory that carries a `.git`
directory, so discovery never walks above it. Standard library only.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory).
"""
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

# A custom SDK call no catalog knows (line 6), live across the lock
# (line 7) before it is registered: a CAN102 only when configuration names
# `mysdk.make_box` an acquirer.
CUSTOM_SDK = """\
import mysdk


class Pool:
    async def start(self, key):
        box = mysdk.make_box()
        await self._lock.acquire()
        self._boxes[key] = box
"""
CUSTOM_LINE = 7

# A CAN102 (line 7) and a CAN202 (strict: remote create with no shield, line 12).
BUGS = """\
import asyncio


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task


class Provider:
    async def create(self):
        sandbox = await self.client.sandboxes.create(image="x")
        self._boxes[sandbox.id] = sandbox
"""
CAN102_LINE = 7
CAN202_LINE = 13


class ConfigCli(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca_config_")
        self.root = os.path.realpath(self._tmp.name)
        os.mkdir(os.path.join(self.root, ".git"))

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_ca(self, *args, cwd=None):
        return subprocess.run([BINARY, "scan", "--no-progress", *args], cwd=cwd or self.root,
                              capture_output=True, text=True, timeout=120)

    def scan_json(self, *args, cwd=None):
        p = self.run_ca("--no-db", "--format", "json", *args, cwd=cwd)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout)

    def rules_lines(self, doc):
        return sorted((f["rule"], f["line"]) for f in doc["findings"])

    # --- discovery ---------------------------------------------------------

    def test_pyproject_found_walking_up(self):
        self.write("pyproject.toml", '[project]\nname = "demo"\n\n[tool.cancelaudit]\nignore = ["CAN102"]\n')
        self.write("pkg/sub/mod.py", BUGS)
        # a nearer pyproject.toml without the table is skipped
        self.write("pkg/pyproject.toml", '[project]\nname = "inner"\n[tool.black]\nline-length = 80\n')
        self.assertEqual(self.rules_lines(self.scan_json("pkg/sub")), [])
        self.assertEqual(self.rules_lines(self.scan_json("mod.py", cwd=os.path.join(self.root, "pkg/sub"))), [])
        self.assertEqual(self.rules_lines(self.scan_json(cwd=os.path.join(self.root, "pkg"))), [])
        self.assertEqual(self.rules_lines(self.scan_json("--no-config", "pkg/sub")), [("CAN102", CAN102_LINE)])

    def test_nearest_cancelaudit_toml_wins(self):
        self.write("pyproject.toml", '[tool.cancelaudit]\nignore = ["CAN102"]\n')
        self.write("pkg/cancelaudit.toml", 'strict = true\n')
        self.write("pkg/mod.py", BUGS)
        self.assertEqual(self.rules_lines(self.scan_json("pkg")),
                         [("CAN102", CAN102_LINE), ("CAN202", CAN202_LINE)])
        # the walk starts at the first scanned path, not at the cwd
        self.write("other/mod.py", BUGS)
        self.assertEqual(self.rules_lines(self.scan_json("other")), [])

    def test_walk_stops_at_repository_root(self):
        outer = os.path.dirname(self.root)
        self.assertFalse(os.path.exists(os.path.join(outer, "cancelaudit.toml")))
        repo = os.path.join(self.root, "repo")
        os.makedirs(os.path.join(repo, ".git"))
        self.write("cancelaudit.toml", 'ignore = ["CAN1"]\n')
        self.write("repo/mod.py", BUGS)
        self.assertEqual(self.rules_lines(self.scan_json("repo")), [("CAN102", CAN102_LINE)])
        os.rmdir(os.path.join(repo, ".git"))
        self.assertEqual(self.rules_lines(self.scan_json("repo")), [])

    def test_explicit_config_file(self):
        self.write("pyproject.toml", '[tool.cancelaudit]\nignore = ["CAN102"]\n')
        self.write("mod.py", BUGS)
        self.write("conf/strict.toml", 'strict = true\n')
        self.write("conf/pyproject.toml", '[tool.cancelaudit]\nselect = "CAN202"\n')
        self.assertEqual(self.rules_lines(self.scan_json("--config", "conf/strict.toml", "mod.py")),
                         [("CAN102", CAN102_LINE), ("CAN202", CAN202_LINE)])
        self.assertEqual(self.rules_lines(self.scan_json("--config=conf/pyproject.toml", "mod.py")),
                         [("CAN202", CAN202_LINE)])
        p = self.run_ca("--no-db", "--config", "conf/missing.toml", "mod.py")
        self.assertEqual(p.returncode, 2)
        self.assertIn("conf/missing.toml", p.stderr)
        self.write("conf/bare/pyproject.toml", '[project]\nname = "x"\n')
        p = self.run_ca("--no-db", "--config", "conf/bare/pyproject.toml", "mod.py")
        self.assertEqual(p.returncode, 2)
        self.assertIn("conf/bare/pyproject.toml:1: no [tool.cancelaudit] table", p.stderr)
        p = self.run_ca("--no-db", "--config", "conf/strict.toml", "--no-config", "mod.py")
        self.assertEqual(p.returncode, 2)

    # --- errors --------------------------------------------------------------

    def test_unknown_key_is_exit_2_with_file_line_key(self):
        self.write("pyproject.toml", '[project]\nname = "x"\n\n[tool.cancelaudit]\nselect = ["CAN1"]\nflavor = "x"\n')
        self.write("mod.py", BUGS)
        p = self.run_ca("--no-db", "mod.py")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stderr, "cancelaudit: pyproject.toml:6: unknown key 'flavor' in [tool.cancelaudit]\n")
        self.assertEqual(p.stdout, "")
        self.write("pyproject.toml", '[tool.cancelaudit]\n[tool.cancelaudit.backends]\nx = "a/*"\n'
                   '[tool.cancelaudit.extra]\ny = 1\n')
        p = self.run_ca("--no-db", "mod.py")
        self.assertEqual(p.returncode, 2)
        self.assertIn("pyproject.toml:4: unknown key 'extra' in [tool.cancelaudit]", p.stderr)
        # cancelaudit.toml, with a suggestion
        os.remove(os.path.join(self.root, "pyproject.toml"))
        self.write("cancelaudit.toml", "\n\nmax_size = 10\n")
        p = self.run_ca("--no-db", "mod.py")
        self.assertEqual(p.returncode, 2)
        self.assertIn("cancelaudit.toml:3: unknown key 'max_size'", p.stderr)
        self.assertIn("did you mean 'max-size'?", p.stderr)

    def test_wrong_type_is_exit_2(self):
        self.write("mod.py", BUGS)
        cases = [
            ('[tool.cancelaudit]\nstrict = "yes"\n', "pyproject.toml:2: 'strict' must be a boolean"),
            ('[tool.cancelaudit]\n\nselect = 101\n', "pyproject.toml:3: 'select' must be an array of strings"),
            ('[tool.cancelaudit]\nexclude = [1]\n', "pyproject.toml:2: 'exclude' must be"),
            ('[tool.cancelaudit]\njobs = "4"\n', "pyproject.toml:2: 'jobs' must be an integer"),
            ('[tool.cancelaudit]\nmax-size = -1\n', "pyproject.toml:2: 'max-size' must be between"),
            ('[tool.cancelaudit]\nacquirers = [{kind = "x"}]\n', "pyproject.toml:2: 'acquirers' item 1 needs a 'pattern'"),
            ('[tool.cancelaudit]\nbackends = ["x"]\n', "pyproject.toml:2: 'backends' must be a table"),
            ('[tool.cancelaudit]\nselect = ["CAN999"]\n', "pyproject.toml:2: unknown rule 'CAN999' in 'select'"),
            ('[tool.cancelaudit]\nstrict = true\nstrict = false\n', "pyproject.toml:3:1: duplicate key 'strict'"),
            ('[tool.cancelaudit\n', "pyproject.toml:1:18: expected ']'"),
        ]
        for text, want in cases:
            with self.subTest(text=text):
                self.write("pyproject.toml", text)
                p = self.run_ca("--no-db", "mod.py")
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertTrue(p.stderr.startswith("cancelaudit: " + want), p.stderr)
                self.assertEqual(p.stdout, "")

    # --- catalog extras and backend maps ---------------------------------------

    def test_extra_acquirer_makes_a_finding(self):
        self.write("mod.py", CUSTOM_SDK)
        self.assertEqual(self.scan_json("mod.py")["findings"], [])
        self.write("cancelaudit.toml", 'acquirers = [{ pattern = "mysdk.make_box", kind = "box" }]\n')
        doc = self.scan_json("mod.py")
        self.assertEqual(self.rules_lines(doc), [("CAN102", CUSTOM_LINE)])
        self.assertEqual(doc["findings"][0]["resource"], "box")
        self.assertEqual(doc["findings"][0]["resource_kind"], "box")
        # a plain string pattern works too (kind "resource")
        self.write("cancelaudit.toml", 'acquirers = ["mysdk.make_*"]\n')
        doc = self.scan_json("mod.py")
        self.assertEqual(self.rules_lines(doc), [("CAN102", CUSTOM_LINE)])
        self.assertEqual(doc["findings"][0]["resource_kind"], "resource")
        # an extra registry word hands the box over before the lock
        self.write("mod.py", CUSTOM_SDK.replace("        await self._lock.acquire()\n",
                                                "        self._enlist_box(box)\n        await self._lock.acquire()\n"))
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")), [("CAN102", CUSTOM_LINE + 1)])
        self.write("cancelaudit.toml", 'acquirers = ["mysdk.make_*"]\nregistries = ["enlist"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")), [])

    def test_backend_map_changes_backend_field(self):
        self.write("providers/alpha/impl.py", BUGS)
        doc = self.scan_json()
        self.assertEqual({f["backend"] for f in doc["findings"]}, {"impl"})
        self.write("pyproject.toml", '[tool.cancelaudit.backends]\nspecial = "providers/alpha/*"\n')
        doc = self.scan_json()
        self.assertEqual({f["backend"] for f in doc["findings"]}, {"special"})
        # globs are relative to the configuration file, wherever the scan runs
        doc = self.scan_json("impl.py", cwd=os.path.join(self.root, "providers/alpha"))
        self.assertEqual({f["backend"] for f in doc["findings"]}, {"special"})
        self.write("pyproject.toml", '[tool.cancelaudit.backends]\nother = ["nomatch/*", "*alpha*"]\n')
        self.assertEqual({f["backend"] for f in self.scan_json()["findings"]}, {"other"})

    # --- options from the file, merged with the command line ---------------------

    def test_select_ignore_strict_from_config(self):
        self.write("mod.py", BUGS)
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")), [("CAN102", CAN102_LINE)])
        self.write("cancelaudit.toml", "strict = true\n")
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")),
                         [("CAN102", CAN102_LINE), ("CAN202", CAN202_LINE)])
        self.write("cancelaudit.toml", 'select = "CAN2"\n')
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")), [("CAN202", CAN202_LINE)])
        self.write("cancelaudit.toml", 'strict = true\nignore = ["CAN202"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("mod.py")), [("CAN102", CAN102_LINE)])
        p = self.run_ca("--no-db", "mod.py")
        self.assertEqual(p.returncode, 1)
        self.write("cancelaudit.toml", 'ignore = ["CAN1"]\n')
        p = self.run_ca("--no-db", "mod.py")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_command_line_wins(self):
        self.write("mod.py", BUGS)
        # --select replaces the file's select
        self.write("cancelaudit.toml", 'select = ["CAN202"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("--select", "CAN102", "mod.py")), [("CAN102", CAN102_LINE)])
        # the file's ignore carries over a --select when the file selects nothing ...
        self.write("cancelaudit.toml", 'ignore = ["CAN102"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("--select", "CAN1,CAN2", "mod.py")),
                         [("CAN202", CAN202_LINE)])
        # ... and goes with the file's select when --select replaces it
        self.write("cancelaudit.toml", 'select = ["CAN2"]\nignore = ["CAN102"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("--select", "CAN102", "mod.py")), [("CAN102", CAN102_LINE)])
        # --ignore adds to the file's ignore
        self.write("cancelaudit.toml", 'strict = true\nignore = ["CAN202"]\n')
        self.assertEqual(self.rules_lines(self.scan_json("--ignore", "CAN102", "mod.py")), [])
        # --strict turns strict on over a file that says false
        self.write("cancelaudit.toml", "strict = false\n")
        self.assertEqual(self.rules_lines(self.scan_json("--strict", "mod.py")),
                         [("CAN102", CAN102_LINE), ("CAN202", CAN202_LINE)])

    def test_excludes_add_up_and_max_size(self):
        self.write("src/a.py", BUGS)
        self.write("src/gen/b.py", BUGS)
        self.write("src/vendor/c.py", BUGS)
        paths = lambda doc: sorted({f["path"] for f in doc["findings"]})
        self.assertEqual(paths(self.scan_json("src")), ["src/a.py", "src/gen/b.py", "src/vendor/c.py"])
        self.write("cancelaudit.toml", 'exclude = ["src/gen/*"]\n')
        self.assertEqual(paths(self.scan_json("src")), ["src/a.py", "src/vendor/c.py"])
        self.assertEqual(paths(self.scan_json("src", "--exclude", "vendor")), ["src/a.py"])
        # an anchored glob keeps meaning the same files from a subdirectory
        self.assertEqual(paths(self.scan_json(".", cwd=os.path.join(self.root, "src"))), ["a.py", "vendor/c.py"])
        self.write("cancelaudit.toml", "max-size = 10\n")
        doc = self.scan_json("src")
        self.assertEqual(doc["findings"], [])
        self.assertEqual(self.rules_lines(self.scan_json("src", "--max-size", "100000")),
                         [("CAN102", CAN102_LINE)] * 3)

    def test_config_recorded_with_the_scan(self):
        self.write("mod.py", BUGS)
        cfg = self.write("pyproject.toml", '[tool.cancelaudit]\nstrict = true\n')
        db = os.path.join(self.root, "audit.db")
        self.assertEqual(self.run_ca("--db", db, "mod.py").returncode, 1)
        self.write("pyproject.toml", '[tool.cancelaudit]\nstrict = true\nacquirers = ["mysdk.make_box"]\n')
        self.assertEqual(self.run_ca("--db", db, "mod.py").returncode, 1)
        self.assertEqual(self.run_ca("--db", db, "--no-config", "mod.py").returncode, 1)
        con = sqlite3.connect(db)
        try:
            args = [r[0] for r in con.execute("SELECT args FROM scans ORDER BY id")]
        finally:
            con.close()
        self.assertEqual(len(args), 3)
        self.assertIn("(config %s, digest " % cfg, args[0])
        self.assertIn("(config none, digest ", args[2])
        digests = [a.rsplit("digest ", 1)[1] for a in args]
        self.assertEqual(len(set(digests)), 3, args)


if __name__ == "__main__":
    unittest.main(verbosity=2)
