#!/usr/bin/env python3
"""`--format sarif` is SARIF 2.1.0 that Microsoft's validator accepts with no
error and no warning (issue 5).

The validator is `sarif-multitool validate` from @microsoft/sarif-multitool,
which scripts/bootstrap.sh installs into build-tools/ (pinned by
tests/ci/package-lock.json). A missing or broken validator FAILS this test:
skipping would let invalid SARIF through unnoticed. SARIF_MULTITOOL may name
the Sarif.Multitool executable to use instead.

Checks:
  - the validator runs, and reports an error for a deliberately broken copy
    of the log (so a validator that silently accepts everything, or reads
    nothing, cannot make this test pass);
  - `scan corpus --format sarif --no-db`: zero errors and zero warnings, read
    from the validator's own SARIF log (results, tool execution and
    configuration notifications) and from its console;
  - the same for a temporary tree with the awkward cases: a file name with
    `,` `:` `%` space and non-ASCII (URI percent-encoding), an inline-
    suppressed finding (inSource suppression), baselined findings (external
    suppression), a file with a syntax error (tool execution notification);
  - what the validator does not check but the issue asks for: driver name,
    version, informationUri, rules metadata, partial fingerprints, related
    locations, %SRCROOT% URIs, invocation times; and the enum values the
    validator (5.7.0) lets through without a word (an unknown result level
    makes it skip the file silently).

Notes (level `note`) are printed, not failed: they are advice such as
"provide a snippet" or "friendly names should be PascalCase".
"""

import copy
import json
import os
import re
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402

PLATFORMS = {"linux": "linux", "darwin": "darwin", "win32": "win32"}
HINT = ("run scripts/bootstrap.sh: it installs @microsoft/sarif-multitool (pinned by "
        "tests/ci/package-lock.json) into build-tools/node_modules")


def find_multitool():
    env = os.environ.get("SARIF_MULTITOOL")
    if env:
        return env
    plat = PLATFORMS.get(sys.platform)
    if not plat:
        return None
    exe = "Sarif.Multitool.exe" if plat == "win32" else "Sarif.Multitool"
    return os.path.join(ca.SOURCE_DIR, "build-tools", "node_modules", "@microsoft",
                        "sarif-multitool-" + plat, exe)


def tool_env():
    env = dict(os.environ)
    # .NET needs ICU unless told to run without it; validation uses no culture data.
    env.setdefault("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
    env.setdefault("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
    return env


CONSOLE_PROBLEM = re.compile(r"\b(error|warning) [A-Z]+[0-9]+(\.[A-Za-z]+)?\s*:")
CONSOLE_NOTE = re.compile(r"\bnote ([A-Z]+[0-9]+)\s*:")
SARIF_LEVELS = {"none", "note", "warning", "error"}
SUPPRESSION_KINDS = {"inSource", "external"}


class SarifValidation(unittest.TestCase):
    tool = None
    version = None

    @classmethod
    def setUpClass(cls):
        exe = find_multitool()
        if not exe or not os.path.isfile(exe):
            raise AssertionError("sarif-multitool not found (looked for %s): %s" % (exe, HINT))
        if not os.access(exe, os.X_OK):
            raise AssertionError("%s is not executable: %s" % (exe, HINT))
        try:
            p = subprocess.run([exe, "--version"], env=tool_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
        except OSError as e:
            raise AssertionError("sarif-multitool cannot run here: %s: %s" % (exe, e))
        out = p.stdout.decode("utf-8", "replace").strip()
        if p.returncode != 0 or "Multitool" not in out:
            raise AssertionError("sarif-multitool --version failed (exit %d): %s\n%s" % (p.returncode, out, HINT))
        cls.tool = exe
        cls.version = out.splitlines()[0]
        print("validator:", cls.version, file=sys.stderr)

    def validate(self, sarif_path, workdir):
        """Run the validator; returns (errors+warnings [str], notes {rule: n}, console)."""
        log = os.path.join(workdir, os.path.basename(sarif_path) + ".validation.sarif")
        p = subprocess.run([self.tool, "validate", sarif_path, "--output", log, "--log", "ForceOverwrite",
                            "--level", "Error;Warning;Note"],
                           cwd=workdir, env=tool_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=300)
        console = p.stdout.decode("utf-8", "replace")
        self.assertTrue(os.path.isfile(log), "validator wrote no log (exit %d):\n%s" % (p.returncode, console))
        with open(log, encoding="utf-8-sig") as f:
            vlog = json.load(f)
        problems, notes = [], {}
        for run in vlog.get("runs", []):
            for r in run.get("results", []):
                level = r.get("level", "warning")
                text = r.get("message", {}).get("text") or json.dumps(r.get("message"))
                if level in ("error", "warning"):
                    problems.append("%s %s: %s" % (level, r.get("ruleId"), text))
                else:
                    notes[r.get("ruleId")] = notes.get(r.get("ruleId"), 0) + 1
            for inv in run.get("invocations", []):
                for key in ("toolExecutionNotifications", "toolConfigurationNotifications"):
                    for n in inv.get(key, []):
                        if n.get("level", "warning") in ("error", "warning"):
                            problems.append("%s %s: %s" % (key, n.get("descriptor", {}).get("id"),
                                                           n.get("message", {}).get("text")))
                if inv.get("executionSuccessful") is False:
                    problems.append("validator run not successful")
        for line in console.splitlines():
            if CONSOLE_PROBLEM.search(line) and line not in problems:
                problems.append("console: " + line)
        if p.returncode != 0:
            problems.append("validator exit status %d" % p.returncode)
        return problems, notes, console

    def scan_sarif(self, args, cwd, out_path):
        p = ca.run_ca(["scan"] + args + ["--format", "sarif", "--no-db", "--no-progress", "--output", out_path], cwd)
        self.assertEqual(p.returncode, 1, "scan should find bugs (exit 1), got %d:\n%s" % (p.returncode, ca.err_text(p)))
        with open(out_path, encoding="utf-8") as f:
            return json.load(f)

    def assert_valid(self, sarif_path, workdir, label):
        problems, notes, console = self.validate(sarif_path, workdir)
        print("%s: sarif-multitool validate: %d errors/warnings; notes %s" % (
            label, len(problems), ", ".join("%s x%d" % kv for kv in sorted(notes.items())) or "none"),
            file=sys.stderr)
        self.assertEqual(problems, [], "%s: the validator reports problems:\n%s" % (label, console))

    # -- own checks: what the issue asks for, and the validator's blind spots --

    def check_contents(self, doc, label):
        self.assertEqual(doc.get("version"), "2.1.0")
        run = doc["runs"][0]
        drv = run["tool"]["driver"]
        self.assertEqual(drv["name"], "cancelaudit")
        self.assertTrue(drv.get("version") and drv.get("informationUri", "").startswith("https://"))
        rule_ids = [r["id"] for r in drv["rules"]]
        self.assertEqual(rule_ids, sorted(rule_ids), "%s: rules out of order" % label)
        for r in drv["rules"]:
            for key in ("shortDescription", "fullDescription"):
                self.assertTrue(r.get(key, {}).get("text"), "%s: rule %s lacks %s" % (label, r["id"], key))
            self.assertTrue(r.get("help", {}).get("text") and r["help"].get("markdown"),
                            "%s: rule %s lacks help text/markdown" % (label, r["id"]))
            self.assertIn(r.get("defaultConfiguration", {}).get("level"), SARIF_LEVELS - {"none"})
        self.assertIn("%SRCROOT%", run.get("originalUriBaseIds", {}))
        self.assertTrue(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/"))
        self.assertEqual(run.get("columnKind"), "unicodeCodePoints")
        inv = run["invocations"][0]
        self.assertIs(inv.get("executionSuccessful"), True)
        iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
        self.assertRegex(inv.get("startTimeUtc", ""), iso)
        self.assertRegex(inv.get("endTimeUtc", ""), iso)
        self.assertTrue(run["results"], "%s: no results" % label)
        for i, r in enumerate(run["results"]):
            where = "%s: results[%d]" % (label, i)
            self.assertIn(r.get("level"), SARIF_LEVELS, where)
            self.assertIn(r.get("ruleId"), rule_ids, where)
            self.assertEqual(drv["rules"][r["ruleIndex"]]["id"], r["ruleId"], where)
            art = r["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertEqual(art.get("uriBaseId"), "%SRCROOT%", where)
            self.assertFalse(art["uri"].startswith(("/", "file:")), where)
            self.assertRegex(r.get("partialFingerprints", {}).get("cancelaudit/v2", ""), r"^\S+$", where)
            # a rank (SARIF 3.27.25: 0.0 to 100.0) and a confidence it comes from
            self.assertIn(r.get("properties", {}).get("confidence"), ("high", "medium", "low"), where)
            self.assertEqual(r.get("rank"), {"high": 90, "medium": 60, "low": 30}[r["properties"]["confidence"]],
                             where)
            # a window's resources, each acquisition a related location
            res = r["properties"].get("resources", [])
            self.assertTrue(res and res[0] == r["properties"]["resource"], where)
            acq = [loc for loc in r["relatedLocations"] if loc["message"]["text"].endswith("acquired here")]
            if len(res) > 1:
                self.assertEqual(len(acq), len(res), where)
            self.assertTrue(r.get("relatedLocations"), "%s: no related location (acquisition)" % where)
            ids = [loc["id"] for loc in r["relatedLocations"]]
            self.assertEqual(len(ids), len(set(ids)), where)
            for s in r.get("suppressions", []):
                self.assertIn(s.get("kind"), SUPPRESSION_KINDS, where)

    # -- tests -------------------------------------------------------------------

    def test_validator_catches_a_broken_log(self):
        work = ca.temp_dir(self)
        doc = self.scan_sarif(["corpus/rules"], ca.SOURCE_DIR, os.path.join(work, "good.sarif"))
        bad = copy.deepcopy(doc)
        bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
        bad["runs"][0]["results"][0]["ruleIndex"] = 999
        path = os.path.join(work, "broken.sarif")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(bad, f, indent=2)
        problems, _, console = self.validate(path, work)
        self.assertTrue(any("JSON1008" in p or "SARIF1009" in p for p in problems),
                        "the validator did not flag a log with startLine 0 and a bad ruleIndex:\n" + console)

    def test_corpus_sarif_is_valid(self):
        work = ca.temp_dir(self)
        path = os.path.join(work, "corpus.sarif")
        doc = self.scan_sarif(["corpus"], ca.SOURCE_DIR, path)
        self.check_contents(doc, "corpus")
        self.assert_valid(path, work, "corpus")

    def test_awkward_tree_sarif_is_valid(self):
        work = ca.temp_dir(self)
        tree = os.path.join(work, "tree")
        weird = "we,ird:na%me ü.py"
        ca.write(tree, weird, ca.module("P") + ca.gap_method("later", "100 % 7"))
        ca.write(tree, "old/b.py", ca.module("Q"))
        ca.write(tree, "supp.py", ca.module("S").replace(
            "async with self._lock:", "async with self._lock:  # cancelaudit: ignore[CAN102]"))
        ca.write(tree, "broken.py", "async def f(:\n    pass\n")
        base = ca.run_ca(["baseline", "old", "--output", os.path.join(work, "base.json")], tree)
        self.assertEqual(base.returncode, 0, ca.err_text(base))
        path = os.path.join(work, "tree.sarif")
        doc = self.scan_sarif([".", "--baseline", os.path.join(work, "base.json")], tree, path)
        self.check_contents(doc, "tree")
        run = doc["runs"][0]
        by_uri = {}
        for r in run["results"]:
            uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            by_uri.setdefault(uri, []).append([s["kind"] for s in r.get("suppressions", [])])
        self.assertEqual(by_uri.get("we%2Cird%3Ana%25me%20%C3%BC.py"), [[], []], by_uri)
        self.assertEqual(by_uri.get("old/b.py"), [["external"]], by_uri)
        self.assertEqual(by_uri.get("supp.py"), [["inSource"]], by_uri)
        notes = run["invocations"][0].get("toolExecutionNotifications", [])
        self.assertTrue(any(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.py"
                            for n in notes), "no notification for the syntax error: %s" % notes)
        self.assert_valid(path, work, "awkward tree")


if __name__ == "__main__":
    unittest.main(verbosity=2)
